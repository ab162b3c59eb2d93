# from tvm.script import tirx as T

@T.prim_func(private=True)
def main(A: T.Buffer((4,), "float32")):
    A[3] = T.float32(3.0)
