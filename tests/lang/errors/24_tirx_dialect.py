# tirx dialect errors: T.sblock needs s_tir=True; the classic T.block does not exist in tirx.
from tvm.script import tirx as T


# T.sblock in a prim_func without s_tir=True
@T.prim_func
def sblock_without_s_tir(A: T.Buffer((4,), "float32")):
    for i in range(4):
        with T.sblock("A"):  # error: `T.sblock` needs `@T.prim_func(s_tir=True)`
#            ^^^^^^^^^^^^^
            vi = T.axis.spatial(4, i)
            A[vi] = T.float32(0)


# the classic name in the tirx namespace
@T.prim_func(s_tir=True)
def classic_block_in_tirx(A: T.Buffer((4,), "float32")):
    for i in range(4):
        with T.block("A"):  # error: did you mean `T.sblock`
#            ^^^^^^^
            vi = T.axis.spatial(4, i)
            A[vi] = T.float32(0)


# T.allocate was removed from tirx
@T.prim_func
def allocate_in_tirx(A: T.Buffer((4,), "float32")):
    buf = T.allocate([4], "float32", "global")  # error: did you mean `T.alloc_buffer`
#         ^^^^^^^^^^
    A[0] = T.float32(0)
