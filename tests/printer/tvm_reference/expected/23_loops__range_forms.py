# from tvm.script import tirx as T

@T.prim_func
def range_forms(A: T.Buffer((64,), "int32")):
    for i in range(16):
        A[i] = i
    for i in range(16, 48):
        A[i] = i * 2
    for i in range(48, 64):
        A[i] = 0
