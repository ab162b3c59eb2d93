# from tvm.script import tirx as T

@T.prim_func
def even_only(A: T.Buffer((64,), "float32")):
    for i in range(64):
        if i % 2 == 1:
            T.continue_loop()
        A[i] = T.float32(0.0)
