# from tvm.script import tirx as T

@T.prim_func
def grid_symbolic(A: T.Buffer(("n", 4, 8), "float32"), n: T.int32):
    for i, j, k in T.grid(n, 4, 8):
        A[i, j, k] = T.Cast("float32", i + j + k)
    for i in range(1, 1 + (n - 1)):
        for j, k in T.grid(4, 8):
            A[i, j, k] = A[i, j, k] + A[i - 1, j, k]
