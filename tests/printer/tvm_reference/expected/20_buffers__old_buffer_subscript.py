# from tvm.script import tirx as T

@T.prim_func
def old_buffer_subscript(A: T.Buffer((128,), "float32"), B: T.Buffer((128,), "float32")):
    for i in range(128):
        B[i] = A[i] + T.float32(1.0)
