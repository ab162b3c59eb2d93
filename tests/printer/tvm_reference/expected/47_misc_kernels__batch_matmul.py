# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def batch_matmul(A: T.Buffer((4, 32, 64), "float16"), B: T.Buffer((4, 64, 16), "float16"), C: T.Buffer((4, 32, 16), "float16")):
    # with T.sblock("root"):
    for b, i, j, k in T.grid(4, 32, 16, 64):
        with T.sblock("bmm"):
            vb, vi, vj, vk = T.axis.remap("SSSR", [b, i, j, k])
            T.reads(A[vb, vi, vk], B[vb, vk, vj])
            T.writes(C[vb, vi, vj])
            with T.init():
                C[vb, vi, vj] = T.float16(0.0)
            C[vb, vi, vj] = C[vb, vi, vj] + A[vb, vi, vk] * B[vb, vk, vj]
