# Static mode: calls to Python functions are not evaluated, so their values are not known statically.
import math

from tvm.script import tir as T


def compute_segment(n, chunk):
    return (n + chunk - 1) // chunk


# seed 003: a host helper computing a loop extent
@T.prim_func
def helper_extent(a: T.handle) -> None:
    A = T.match_buffer(a, [16])
    chunk_n = 3
    for n in T.serial(0, compute_segment(16, chunk_n)):  # error: not known statically
#                        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^
        A[n] = T.float32(100)


# a helper computing a buffer shape
@T.prim_func
def helper_shape(A: T.Buffer((compute_segment(64, 8),), "float32")):  # error: not known statically
#                             ^^^^^^^^^^^^^^^^^^^^^^
    A[0] = T.float32(0)


# a non-literal module attribute (the math module is never imported by the evaluator)
@T.prim_func
def module_attr_shape(A: T.Buffer((math.floor(2.5),), "float32")):  # error: not known statically
#                                  ^^^^^^^^^^^^^^^
    A[0] = T.float32(0)
