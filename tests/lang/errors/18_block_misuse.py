# Block-only statements used outside a block, and block iter vars bound inconsistently.
from tvm.script import tir as T


# T.init outside of any block
@T.prim_func
def init_outside(A: T.Buffer((4,), "float32")):
    with T.init():  # error: T.init() must be inside a block
#        ^^^^^^^^
        A[0] = T.float32(0)


# T.where outside of any block
@T.prim_func
def where_outside(A: T.Buffer((4,), "float32")):
    for i in range(4):
        T.where(i < 3)  # error: T.where() must be inside a block
#       ^^^^^^^^^^^^^^
        A[i] = T.float32(0)


# an iter var whose binding leaves its domain
@T.prim_func
def binding_out_of_domain(A: T.Buffer((8,), "float32")):
    for i in range(16):
        with T.block("A"):
            vi = T.axis.spatial(8, i)  # warning: binding 'i' of 'vi' exceeds its domain [0, 8)
#                ^^^^^^^^^^^^^^^^^^^^
            A[vi] = T.float32(0)


# a block using an outer loop var directly instead of an iter var
@T.prim_func
def loop_var_in_block(A: T.Buffer((8,), "float32")):
    for i in range(8):
        with T.block("A"):
            vi = T.axis.spatial(8, i)
            A[vi] = T.Cast("float32", i)  # warning: loop variable 'i' is used inside block 'A'
#                                     ^
