# Expression constructors: if_then_else, Select, Cast/cast, max/min, floor/trunc div and mod, operators.
from tvm.script import tir as T


# the two conditional expressions side by side
@T.prim_func
def conditionals(A: T.Buffer((32,), "float32"), B: T.Buffer((32,), "float32")):
    for i in range(32):
        B[i] = T.if_then_else(i < 16, A[i], T.float32(0)) + T.Select(A[i] > T.float32(0), A[i], -A[i])


# T.Cast and T.cast spellings, int/float round trips
@T.prim_func
def casts(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "int32"), C: T.Buffer((8,), "float16")):
    for i in range(8):
        B[i] = T.Cast("int32", A[i])
        C[i] = T.cast(A[i], "float16")
        A[i] = T.Cast("float32", B[i]) + T.Cast("float32", C[i])


# integer division flavors and Python operators on PrimExprs
@T.prim_func
def divisions(A: T.Buffer((4, 64), "int32"), n: T.int32):
    for i in range(64):
        A[0, i] = T.floordiv(i - 32, n) + T.floormod(i - 32, n)
        A[1, i] = T.truncdiv(i - 32, n) + T.truncmod(i - 32, n)
        A[2, i] = (i - 32) // n + (i - 32) % n
        A[3, i] = T.max(i, n) - T.min(i, n) + (-i) * 3


# float division, comparisons producing bools, and a max of three
@T.prim_func
def float_ops(A: T.Buffer((8,), "float32"), M: T.Buffer((8,), "bool")):
    for i in range(8):
        A[i] = A[i] / T.float32(3) - T.max(T.max(A[i], T.float32(1)), T.float32(-1))
        M[i] = A[i] >= T.float32(0) and A[i] <= T.float32(1) or A[i] == T.float32(2)


# IR node constructors spelled directly: T.Add, T.Mul, T.FloorDiv, T.Min, T.EQ, T.Not, T.And
@T.prim_func
def node_ctors(A: T.Buffer((8,), "int32"), M: T.Buffer((8,), "bool")):
    for i in range(8):
        A[i] = T.Add(T.Mul(i, 2), T.FloorDiv(i, 3)) + T.Min(i, 4) + T.Sub(i, 1) + T.FloorMod(i, 5)
        M[i] = T.And(T.EQ(i % 2, 0), T.Not(T.LT(i, 2)))
