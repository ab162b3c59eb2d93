# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def add_i64(A: T.Buffer((T.int64(16), T.int64(16)), "float32"), B: T.Buffer((T.int64(256),), "float32")):
    # with T.sblock("root"):
    for i, j in T.grid(T.int64(16), T.int64(16)):
        with T.sblock("flatten"):
            vi, vj = T.axis.remap("SS", [i, j])
            T.reads(A[vi, vj])
            T.writes(B[vi * T.int64(16) + vj])
            B[vi * T.int64(16) + vj] = A[vi, vj] + T.float32(1.0)
