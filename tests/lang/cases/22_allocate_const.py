# T.allocate_const: constant tables baked into the function.
from tvm.script import tir as T


# a 1-D int32 lookup table
@T.prim_func
def lut(idx: T.Buffer((8,), "int32"), out: T.Buffer((8,), "int32")):
    table = T.allocate_const([1, 2, 4, 8, 16, 32, 64, 128], "int32", [8])
    table_1 = T.Buffer((8,), "int32", data=table)
    for i in range(8):
        out[i] = table_1[idx[i]]


# a 2x3 float32 weight constant used in a tiny matvec
@T.prim_func
def const_weights(x: T.Buffer((3,), "float32"), y: T.Buffer((2,), "float32")):
    w = T.allocate_const([0.5, -1.0, 2.0, 1.5, 0.0, -0.25], "float32", [2, 3])
    w_1 = T.Buffer((2, 3), data=w)
    for i in range(2):
        y[i] = T.float32(0)
        for k in range(3):
            y[i] = y[i] + w_1[i, k] * x[k]
