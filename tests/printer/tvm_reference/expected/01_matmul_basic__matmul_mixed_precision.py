# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def matmul_mixed_precision(A: T.Buffer((64, 256), "float16"), B: T.Buffer((256, 32), "float16"), C: T.Buffer((64, 32), "float32")):
    # with T.sblock("root"):
    for i, j, k in T.grid(64, 32, 256):
        with T.sblock("C"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            T.reads(A[vi, vk], B[vk, vj])
            T.writes(C[vi, vj])
            with T.init():
                C[vi, vj] = T.float32(0.0)
            C[vi, vj] = C[vi, vj] + T.Cast("float32", A[vi, vk]) * T.Cast("float32", B[vk, vj])
