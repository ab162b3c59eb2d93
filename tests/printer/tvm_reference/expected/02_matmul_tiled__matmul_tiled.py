# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def matmul_tiled(A: T.Buffer((1024, 1024), "float32"), B: T.Buffer((1024, 1024), "float32"), C: T.Buffer((1024, 1024), "float32")):
    # with T.sblock("root"):
    for i0_outer, i1_outer, i2_outer, i2_inner, i0_inner, i1_inner in T.grid(32, 32, 256, 4, 32, 32):
        with T.sblock("C"):
            vi = T.axis.spatial(1024, i0_outer * 32 + i0_inner)
            vj = T.axis.spatial(1024, i1_outer * 32 + i1_inner)
            vk = T.axis.reduce(1024, i2_outer * 4 + i2_inner)
            T.reads(A[vi, vk], B[vk, vj])
            T.writes(C[vi, vj])
            with T.init():
                C[vi, vj] = T.float32(0.0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
