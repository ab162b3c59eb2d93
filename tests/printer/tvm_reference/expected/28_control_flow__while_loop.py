# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def while_loop(A: T.Buffer((1,), "int32"), n: T.int32):
    # with T.sblock("root"):
    i = T.sblock_alloc_buffer((1,), "int32", scope="local")
    i[0] = 0
    while i[0] < n:
        A[0] = A[0] + i[0]
        i[0] = i[0] + 1
