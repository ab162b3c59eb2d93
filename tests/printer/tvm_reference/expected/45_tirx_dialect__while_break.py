# from tvm.script import tirx as T

@T.prim_func
def while_break(A: T.Buffer((1,), "int32"), n: T.int32):
    i: T.int32 = 0
    while i < n:
        if A > 100:
            T.break_loop()
        A = A + i
        i = i + 1
