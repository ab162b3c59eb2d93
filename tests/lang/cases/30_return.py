# Return values: `return expr` and T.ret in T.evaluate, functions returning scalars.
from tvm.script import tir as T


# return of a computed int32
@T.prim_func
def add_ints(a: T.int32, b: T.int32) -> T.int32:
    return a + b


# T.evaluate(T.ret(...)) spelled out, early return under a condition
@T.prim_func
def clamp(x: T.float32) -> T.float32:
    if x < T.float32(0):
        T.evaluate(T.ret(T.float32(0)))
    T.evaluate(T.ret(x))


# return after a let-bound intermediate
@T.prim_func
def poly(x: T.int64) -> T.int64:
    y: T.int64 = x * x
    return y * T.int64(3) + x + T.int64(7)


# return status code from a function with side effects
@T.prim_func
def fill_and_status(A: T.Buffer((4,), "int8")) -> T.int32:
    for i in range(4):
        A[i] = T.int8(0)
    return 0
