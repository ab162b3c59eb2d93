# Unknown dtype strings in buffers, casts and allocations.
from tvm.script import tir as T


# a misspelled dtype in a Buffer annotation
@T.prim_func
def bad_buffer_dtype(A: T.Buffer((4,), "flaot32")):  # error: unknown dtype 'flaot32'
#                                      ^^^^^^^^^
    A[0] = T.float32(0)


# an unknown dtype in a cast and an alloc_buffer
@T.prim_func
def bad_cast_dtype(A: T.Buffer((4,), "float32")):
    B = T.alloc_buffer((4,), "int33")  # error: unknown dtype 'int33'
#                            ^^^^^^^
    B[0] = T.Cast("flt", A[0])  # error: unknown dtype 'flt'
#                 ^^^^^
