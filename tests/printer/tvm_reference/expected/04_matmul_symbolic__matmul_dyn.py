# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def matmul_dyn(A: T.Buffer(("n", "k"), "float32"), B: T.Buffer((k, "m"), "float32"), C: T.Buffer((n, m), "float32")):
    n, k = T.int32(), T.int32()
    m = T.int32()
    # with T.sblock("root"):
    for i, j, r in T.grid(n, m, k):
        with T.sblock("C"):
            vi, vj, vr = T.axis.remap("SSR", [i, j, r])
            T.reads(A[vi, vr], B[vr, vj])
            T.writes(C[vi, vj])
            with T.init():
                C[vi, vj] = T.float32(0.0)
            C[vi, vj] = C[vi, vj] + A[vi, vr] * B[vr, vj]
