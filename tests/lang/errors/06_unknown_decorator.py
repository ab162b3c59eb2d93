# A misspelled decorator: the function is still recognised as an attempted unit and diagnosed.
from tvm.script import tir as T


# prim_fun instead of prim_func
@T.prim_fun  # error: did you mean `T.prim_func`
#^^^^^^^^^^
def almost_a_kernel(A: T.Buffer((4,), "float32")):
    A[0] = T.float32(0)
