# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def matmul_decomposed(A: T.Buffer((1024, 1024), "float32"), B: T.Buffer((1024, 1024), "float32"), C: T.Buffer((1024, 1024), "float32")):
    # with T.sblock("root"):
    for i0_outer in range(32):
        for i1_outer_init, i0_inner_init in T.grid(32, 32):
            for i1_inner_init in T.vectorized(32):
                with T.sblock("C_init"):
                    vi = T.axis.spatial(1024, i0_outer * 32 + i0_inner_init)
                    vj = T.axis.spatial(1024, i1_outer_init * 32 + i1_inner_init)
                    T.reads()
                    T.writes(C[vi, vj])
                    C[vi, vj] = T.float32(0.0)
        for i1_outer, i2_outer, i2_inner, i0_inner in T.grid(32, 256, 4, 32):
            for i1_inner in T.vectorized(32):
                with T.sblock("C_update"):
                    vi = T.axis.spatial(1024, i0_outer * 32 + i0_inner)
                    vj = T.axis.spatial(1024, i1_outer * 32 + i1_inner)
                    vk = T.axis.reduce(1024, i2_outer * 4 + i2_inner)
                    T.reads(C[vi, vj], A[vi, vk], B[vk, vj])
                    T.writes(C[vi, vj])
                    C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
