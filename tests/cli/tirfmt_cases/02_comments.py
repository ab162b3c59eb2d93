from tvm.script import tir as T


# a comment above the unit stays where it is
@T.prim_func
def scale(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
    # double every element
    for i in range(16):  # the only loop
        with T.block("B"):
            vi = T.axis.spatial(16, i)
            # the store
            B[vi] = A[vi] * T.float32(2)  # times two
            # end of the block body
    # end of the function
# output
from tvm.script import tir as T


# a comment above the unit stays where it is
@T.prim_func
def scale(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
    # double every element
    for i in range(16):  # the only loop
        with T.block("B"):
            vi = T.axis.spatial(16, i)
            # the store
            B[vi] = A[vi] * T.float32(2)  # times two
            # end of the block body
    # end of the function
