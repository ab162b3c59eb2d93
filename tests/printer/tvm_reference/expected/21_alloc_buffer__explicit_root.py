# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def explicit_root(A: T.Buffer((32, 32), "float32"), B: T.Buffer((32, 32), "float32")):
    # with T.sblock("root"):
    A_shared = T.sblock_alloc_buffer((32, 32), scope="shared")
    A_local = T.sblock_alloc_buffer((32, 32), scope="local")
    for i, j in T.grid(32, 32):
        with T.sblock("A_shared"):
            vi, vj = T.axis.remap("SS", [i, j])
            T.reads(A[vi, vj])
            T.writes(A_shared[vi, vj])
            A_shared[vi, vj] = A[vi, vj]
    for i, j in T.grid(32, 32):
        with T.sblock("A_local"):
            vi, vj = T.axis.remap("SS", [i, j])
            T.reads(A_shared[vi, vj])
            T.writes(A_local[vi, vj])
            A_local[vi, vj] = A_shared[vi, vj]
    for i, j in T.grid(32, 32):
        with T.sblock("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            T.reads(A_local[vi, vj])
            T.writes(B[vi, vj])
            B[vi, vj] = A_local[vi, vj]
