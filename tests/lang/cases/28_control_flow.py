# Control flow: if/else, elif chains, nested ifs, Python-constant conditions folded at parse time, while.
from tvm.script import tir as T

USE_BIAS = True
MODE = "relu"


# if / else on PrimExprs
@T.prim_func
def if_else(A: T.Buffer((32,), "float32"), B: T.Buffer((32,), "float32")):
    for i in range(32):
        if i < 16:
            B[i] = A[i]
        else:
            B[i] = -A[i]


# if / elif / else chain and a nested if without else
@T.prim_func
def elif_chain(A: T.Buffer((64,), "int32")):
    for i in range(64):
        if i % 4 == 0:
            A[i] = 0
        elif i % 4 == 1:
            A[i] = 1
        elif i % 4 == 2:
            if i > 32:
                A[i] = 22
        else:
            A[i] = 3


# conditions on Python constants (module constants, literals) are folded, not emitted
@T.prim_func
def const_fold(A: T.Buffer((8,), "float32"), bias: T.Buffer((8,), "float32")):
    for i in range(8):
        if USE_BIAS:
            A[i] = A[i] + bias[i]
        if MODE == "relu":
            A[i] = T.max(A[i], T.float32(0))
        else:
            A[i] = T.sigmoid(A[i])
        if False:
            A[i] = T.float32(-1)


# while loop over a scalar held in a local buffer
@T.prim_func
def while_loop(A: T.Buffer((1,), "int32"), n: T.int32):
    i = T.alloc_buffer((1,), "int32", scope="local")
    i[0] = 0
    while i[0] < n:
        A[0] = A[0] + i[0]
        i[0] = i[0] + 1


# boolean operators in conditions: and / or / not, and comparison chains of PrimExprs
@T.prim_func
def bool_ops(A: T.Buffer((16, 16), "float32")):
    for i, j in T.grid(16, 16):
        if (i < 4 or i >= 12) and not (j == 0):
            A[i, j] = T.float32(1)
        if i == j and i != 0:
            A[i, j] = T.float32(2)


# if inside a block body with T.if_then_else alternative
@T.prim_func
def if_in_block(A: T.Buffer((32,), "float32"), B: T.Buffer((32,), "float32")):
    for i in range(32):
        with T.block("B"):
            vi = T.axis.spatial(32, i)
            if vi % 2 == 0:
                B[vi] = A[vi]
            else:
                B[vi] = T.if_then_else(A[vi] > T.float32(0), A[vi], T.float32(0))
