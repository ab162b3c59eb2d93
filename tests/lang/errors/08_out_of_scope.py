# Vars used outside the scope that defines them.
from tvm.script import tir as T


# a loop var used after its loop
@T.prim_func
def loop_var_after_loop(A: T.Buffer((16,), "float32")):
    for i in range(16):
        A[i] = T.float32(0)
    A[i] = T.float32(1)  # error: 'i' is not defined
#     ^


# a block iter var used after its block
@T.prim_func
def iter_var_after_block(A: T.Buffer((16,), "float32")):
    for i in range(16):
        with T.block("A"):
            vi = T.axis.spatial(16, i)
            A[vi] = T.float32(0)
        A[vi] = T.float32(1)  # error: 'vi' is not defined
#         ^^


# a let-bound name used in the else branch of the if that bound it
@T.prim_func
def let_in_other_branch(A: T.Buffer((4,), "int32"), n: T.int32):
    if n > 0:
        k = n * 2
        A[0] = k
    else:
        A[0] = k  # error: 'k' is not defined
#              ^
