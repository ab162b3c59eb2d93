# Undefined names, with the closest defined name suggested.
from tvm.script import tir as T


# a typo in a local name
@T.prim_func
def typo_local(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
    scale = T.float32(2)
    for i in range(16):
        B[i] = A[i] * scal  # error: 'scal' is not defined
#                     ^^^^


# a typo in a buffer name
@T.prim_func
def typo_buffer(Input: T.Buffer((16,), "float32"), Output: T.Buffer((16,), "float32")):
    for i in range(16):
        Output[i] = Inptu[i]  # error: did you mean 'Input'
#                   ^^^^^


# an unknown symbolic var in a shape annotation
@T.prim_func
def unknown_shape_var(A: T.Buffer((n,), "float32")):  # error: 'n' is not defined
#                                  ^
    A[0] = T.float32(0)
