# from tvm.script import tirx as T

@T.prim_func
def concise_decl(A: T.Buffer((4,), "int32"), k: T.int32):
    D = T.alloc_buffer((4,), "int32")
    twice: T.int32 = k * 2
    for i in range(4):
        D[i] = A[i] + twice
    for i in range(4):
        A[i] = D[i]
