# from tvm.script import tirx as T

@T.prim_func
def commented_control(A: T.Buffer((16,), "int32"), n: T.int32):
    for i in range(16):
        if i < n:
            A[i] = 1
        else:
            A[i] = 0
    while A[0] < 10:
        A[0] = A[0] + 1
