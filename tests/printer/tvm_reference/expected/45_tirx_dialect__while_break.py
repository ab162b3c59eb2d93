# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def while_break(A: T.Buffer((1,), "int32"), n: T.int32):
    i = T.alloc_local((1,), "int32")
    i[0] = 0
    while i[0] < n:
        if A[0] > 100:
            T.break_loop()
        A[0] = A[0] + i[0]
        i[0] = i[0] + 1
