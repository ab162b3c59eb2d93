# TVM 0.27 (tests/python/s_tir/transform/test_s_tir_transform_canonicalize_loop.py,
# test_canonicalize_loop): range(1, 128, 5) -> range(26) over i * 5 + 1.
from tvm.script import tirx as T


@T.prim_func
def main(A: T.Buffer((128,), "float32"), B: T.Buffer((128,), "float32")):
    for i in range(1, 128, 5):
        B[i] = A[i] + T.float32(1.0)


# output
from tvm.script import tirx as T


@T.prim_func
def main(A: T.Buffer((128,), "float32"), B: T.Buffer((128,), "float32")):
    for i in T.serial(0, 26):
        B[i * 5 + 1] = A[i * 5 + 1] + T.float32(1.0)
