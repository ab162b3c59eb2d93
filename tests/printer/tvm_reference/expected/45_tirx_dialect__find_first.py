# from tvm.script import tirx as T

@T.prim_func
def find_first(A: T.Buffer((64,), "int32"), out: T.Buffer((1,), "int32")):
    out = -1
    for i in range(64):
        if A[i] == 0:
            out = i
            T.break_loop()
