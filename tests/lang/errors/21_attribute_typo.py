# Unknown attributes of buffers and vars, with the nearest attribute suggested.
from tvm.script import tir as T


# A.dta instead of A.data
@T.prim_func
def data_typo(A: T.Buffer((16,), "float32")):
    A_flat = T.Buffer((16,), data=A.dta)  # error: did you mean 'data'
#                                 ^^^^^
    A_flat[0] = T.float32(0)


# shape typo
@T.prim_func
def shape_typo(A: T.Buffer((16,), "float32")):
    for i in range(A.shpe[0]):  # error: did you mean 'shape'
#                  ^^^^^^
        A[i] = T.float32(0)
