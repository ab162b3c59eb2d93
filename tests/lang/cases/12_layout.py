# Layout ops: transpose, reshape via index arithmetic, concatenation, slicing copy.
from tvm.script import tir as T


# 2-D transpose
@T.prim_func
def transpose(A: T.Buffer((128, 64), "float32"), B: T.Buffer((64, 128), "float32")):
    for i, j in T.grid(64, 128):
        with T.block("T"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vj, vi]


# NCHW -> NHWC
@T.prim_func
def nchw_to_nhwc(A: T.Buffer((1, 3, 8, 8), "float32"), B: T.Buffer((1, 8, 8, 3), "float32")):
    for n, h, w, c in T.grid(1, 8, 8, 3):
        with T.block("layout"):
            vn, vh, vw, vc = T.axis.remap("SSSS", [n, h, w, c])
            B[vn, vh, vw, vc] = A[vn, vc, vh, vw]


# reshape (32, 32) -> (1024,) with floordiv/floormod on the output index
@T.prim_func
def reshape(A: T.Buffer((32, 32), "float32"), B: T.Buffer((1024,), "float32")):
    for i in range(1024):
        with T.block("reshape"):
            vi = T.axis.spatial(1024, i)
            B[vi] = A[T.floordiv(vi, 32), T.floormod(vi, 32)]


# concatenate three inputs along axis 0 (seed 002's concat example, modern syntax)
@T.prim_func
def concat(A0: T.Buffer((10,), "float32"), A1: T.Buffer((10,), "float32"), A2: T.Buffer((10,), "float32"), B: T.Buffer((30,), "float32")):
    for i in range(10):
        with T.block("B0"):
            vi = T.axis.spatial(10, i)
            B[vi] = A0[vi]
    for i in range(10):
        with T.block("B1"):
            vi = T.axis.spatial(10, i)
            B[vi + 10] = A1[vi]
    for i in range(10):
        with T.block("B2"):
            vi = T.axis.spatial(10, i)
            B[vi + 20] = A2[vi]


# strided slice copy: every other row
@T.prim_func
def strided_slice(A: T.Buffer((16, 8), "float32"), B: T.Buffer((8, 8), "float32")):
    for i, j in T.grid(8, 8):
        with T.block("slice"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi * 2 + 1, vj]
