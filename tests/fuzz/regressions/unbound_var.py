from tvm.script import tir as T


@T.prim_func(check_well_formed=False)
def fill_with_unbound(A: T.Buffer((4,), "int32")):
    for i in range(4):
        level = T.int32()
        A[i] = level + 1
