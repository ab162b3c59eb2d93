from tvm.script import tir as T


@T.prim_func(check_well_formed=False)
def fill_with_unbound(A: T.Buffer((4,), "int32")):
    # `level` is used but never bound: each parse makes a new var, which the check maps by order
    level = T.int32()
    for i in range(4):
        A[i] = level+1
# output
from tvm.script import tir as T


@T.prim_func(check_well_formed=False)
def fill_with_unbound(A: T.Buffer((4,), "int32")):
    level = T.int32()
    # `level` is used but never bound: each parse makes a new var, which the check maps by order
    for i in range(4):
        A[i] = level + 1
