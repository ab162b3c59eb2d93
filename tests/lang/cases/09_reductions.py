# Reductions with T.init: sum, max, min over an axis, full reduction to a scalar, argmax.
from tvm.script import tir as T


# row sum
@T.prim_func
def row_sum(A: T.Buffer((128, 128), "float32"), B: T.Buffer((128,), "float32")):
    for i, k in T.grid(128, 128):
        with T.block("sum"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                B[vi] = T.float32(0)
            B[vi] = B[vi] + A[vi, vk]


# column max with T.axis.spatial / T.axis.reduce written out
@T.prim_func
def col_max(A: T.Buffer((64, 32), "float32"), B: T.Buffer((32,), "float32")):
    for j in range(32):
        for k in range(64):
            with T.block("max"):
                vj = T.axis.spatial(32, j)
                vk = T.axis.reduce(64, k)
                with T.init():
                    B[vj] = T.min_value("float32")
                B[vj] = T.max(B[vj], A[vk, vj])


# full reduction to a 1-element buffer, reduction loops outermost
@T.prim_func
def total_min(A: T.Buffer((16, 16), "int32"), B: T.Buffer((1,), "int32")):
    for i, j in T.grid(16, 16):
        with T.block("min"):
            vi, vj = T.axis.remap("RR", [i, j])
            with T.init():
                B[0] = T.max_value("int32")
            B[0] = T.min(B[0], A[vi, vj])


# argmax written with two buffers and Select (as TVM prints it)
@T.prim_func
def argmax(
    idx: T.Buffer((128, 128), "int32"),
    val: T.Buffer((128, 128), "float32"),
    argmax_v0: T.Buffer((128,), "int32"),
    argmax_v1: T.Buffer((128,), "float32"),
):
    for i0, i1 in T.grid(128, 128):
        with T.block("argmax"):
            i, k = T.axis.remap("SR", [i0, i1])
            with T.init():
                argmax_v0[i] = -1
                argmax_v1[i] = T.min_value("float32")
            v_argmax_v0: T.int32 = T.Select(argmax_v1[i] >= val[i, k], argmax_v0[i], idx[i, k])
            v_argmax_v1: T.float32 = T.Select(argmax_v1[i] >= val[i, k], argmax_v1[i], val[i, k])
            argmax_v0[i] = v_argmax_v0
            argmax_v1[i] = v_argmax_v1


# sum of squares with T.axis.S / T.axis.R shorthands and a float64 accumulator
@T.prim_func
def sum_sq(A: T.Buffer((8, 100), "float32"), B: T.Buffer((8,), "float64")):
    for i, k in T.grid(8, 100):
        with T.block("sumsq"):
            vi = T.axis.S(8, i)
            vk = T.axis.R(100, k)
            with T.init():
                B[vi] = T.float64(0)
            B[vi] = B[vi] + T.Cast("float64", A[vi, vk] * A[vi, vk])
