# TVM 0.27 (test_canonicalize_nested_loop): each stepped loop of a nest is rewritten; loops that
# start at 0 with step 1 are left alone.
from tvm.script import tirx as T


@T.prim_func
def main(A: T.Buffer((128, 128), "float32"), B: T.Buffer((128, 128), "float32")):
    for i in range(1, 128, 5):
        for j in range(2, 128, 3):
            for k in range(1):
                B[i, j + k] = A[i, j] + T.float32(1.0)


# output
from tvm.script import tirx as T


@T.prim_func
def main(A: T.Buffer((128, 128), "float32"), B: T.Buffer((128, 128), "float32")):
    for i in T.serial(0, 26):
        for j in T.serial(0, 42):
            for k in range(1):
                B[i * 5 + 1, j * 3 + 2 + k] = A[i * 5 + 1, j * 3 + 2] + T.float32(1.0)
