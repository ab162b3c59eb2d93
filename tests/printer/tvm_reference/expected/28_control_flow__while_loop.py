# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def while_loop(A: T.Buffer((1,), "int32"), n: T.int32):
    i = T.alloc_local((1,), "int32")
    i[0] = 0
    while i[0] < n:
        A[0] = A[0] + i[0]
        i[0] = i[0] + 1
