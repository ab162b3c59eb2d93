# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def bias_add(A: T.Buffer((32, 64), "float32"), bias: T.Buffer((64,), "float32"), B: T.Buffer((32, 64), "float32")):
    # with T.sblock("root"):
    for i, j in T.grid(32, 64):
        with T.sblock("bias_add"):
            vi, vj = T.axis.remap("SS", [i, j])
            T.reads(A[vi, vj], bias[vj])
            T.writes(B[vi, vj])
            B[vi, vj] = A[vi, vj] + bias[vj]
