# T.axis.remap misuse: kind string vs bindings, invalid kinds, bindings that are not loop vars, unpacking.
from tvm.script import tir as T


# two kinds, three bindings
@T.prim_func
def remap_length(A: T.Buffer((4, 4, 4), "float32"), B: T.Buffer((4, 4), "float32")):
    for i, j, k in T.grid(4, 4, 4):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j, k])  # error: 2 kind(s) but 3 binding(s)
#                    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
            B[vi, vj] = A[vi, vj, 0]


# an invalid kind letter
@T.prim_func
def remap_kind(A: T.Buffer((4, 4), "float32")):
    for i, j in T.grid(4, 4):
        with T.block("A"):
            vi, vj = T.axis.remap("SX", [i, j])  # error: invalid iter kind 'X'
#                                 ^^^^
            A[vi, vj] = T.float32(0)


# a binding that is an expression, not a loop var
@T.prim_func
def remap_expr(A: T.Buffer((8,), "float32")):
    for i in range(4):
        with T.block("A"):
            vi = T.axis.remap("S", [i * 2])  # error: must be a loop variable
#                                   ^^^^^
            A[vi] = T.float32(0)


# three iter vars unpacked into two names
@T.prim_func
def remap_unpack(A: T.Buffer((4, 4, 4), "float32")):
    for i, j, k in T.grid(4, 4, 4):
        with T.block("A"):
            vi, vj = T.axis.remap("SSS", [i, j, k])  # error: expected 2 values to unpack, got 3
#           ^^^^^^
            A[vi, vj, 0] = T.float32(0)
