from tvm.script import tir as T


@T.prim_func
def f(A: T.Buffer((4, 4), "float32"), C: T.Buffer((4, 4), "float32")):
    for i, j in T.grid(4, 4):
        with T.block("C"):
            vi, vj = T.axis.remap("SS", [i, j])
            B = T.alloc_buffer((4, 4), "float32", strides=[1])
            B[vi, vj] = A[vi, vj]
            C[vi, vj] = B[vi, vj]
