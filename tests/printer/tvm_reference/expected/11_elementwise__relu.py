# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def relu(A: T.Buffer((16, 16), "float32"), B: T.Buffer((16, 16), "float32")):
    # with T.sblock("root"):
    for i, j in T.grid(16, 16):
        with T.sblock("relu"):
            vi, vj = T.axis.remap("SS", [i, j])
            T.reads(A[vi, vj])
            T.writes(B[vi, vj])
            B[vi, vj] = T.max(A[vi, vj], T.float32(0.0))
