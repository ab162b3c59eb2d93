# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def copy_i64_dtype(A: T.Buffer((T.int64(8),), "int32"), B: T.Buffer((T.int64(8),), "int32")):
    # with T.sblock("root"):
    for i in range(T.int64(8)):
        with T.sblock("copy"):
            vi = T.axis.spatial(T.int64(8), i)
            T.reads(A[vi])
            T.writes(B[vi])
            B[vi] = A[vi]
