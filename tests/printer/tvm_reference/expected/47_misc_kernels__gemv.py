# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def gemv(A: T.Buffer((256, 256), "float32"), x: T.Buffer((256,), "float32"), y: T.Buffer((256,), "float32")):
    # with T.sblock("root"):
    for i in T.parallel(256):
        for ko in range(64):
            for ki in T.unroll(4):
                with T.sblock("y"):
                    vi = T.axis.spatial(256, i)
                    vk = T.axis.reduce(256, ko * 4 + ki)
                    T.reads(A[vi, vk], x[vk])
                    T.writes(y[vi])
                    with T.init():
                        y[vi] = T.float32(0.0)
                    y[vi] = y[vi] + A[vi, vk] * x[vk]
