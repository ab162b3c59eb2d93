# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def rank0_sum(A: T.Buffer((16,), "float32"), S: T.Buffer((), "float32")):
    # with T.sblock("root"):
    for i in range(16):
        with T.sblock("S"):
            vi = T.axis.reduce(16, i)
            T.reads(A[vi])
            T.writes(S[()])
            with T.init():
                S[()] = T.float32(0.0)
            S[()] = S[()] + A[vi]
