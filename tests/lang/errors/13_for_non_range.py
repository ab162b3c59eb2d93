# for loops over things that are not loop ranges.
from tvm.script import tir as T


# iterating over a plain integer
@T.prim_func
def over_int(A: T.Buffer((4,), "float32")):
    for i in 4:  # error: is not a loop range
#            ^
        A[i] = T.float32(0)


# iterating over a buffer
@T.prim_func
def over_buffer(A: T.Buffer((4,), "float32")):
    for x in A:  # error: is not a loop range
#            ^
        T.evaluate(x)


# a T.grid with fewer extents than loop variables
@T.prim_func
def grid_arity(A: T.Buffer((4, 4), "float32")):
    for i, j in T.grid(4):  # error: 1 extent(s) but 2 loop variable(s)
#               ^^^^^^^^^
        A[i, j] = T.float32(0)
