# Assertions: Python assert with message, T.Assert concise and with forms.
from tvm.script import tir as T


# assert statements on parameters
@T.prim_func
def checked_copy(a: T.handle, b: T.handle, n: T.int32):
    A = T.match_buffer(a, (n,), "float32")
    B = T.match_buffer(b, (n,), "float32")
    assert n > 0, "n must be positive"
    assert n % 4 == 0, "n must be a multiple of 4"
    for i in range(n):
        B[i] = A[i]


# T.Assert in concise form (covers the rest of the body) and with form
@T.prim_func
def t_assert(A: T.Buffer((16,), "int32"), k: T.int32):
    T.Assert(k < 16, "k out of range")
    with T.Assert(k >= 0, "k must be non-negative"):
        A[k] = 1
    A[0] = k


# assert with a parenthesized multi-line condition and an f-free string message
@T.prim_func
def multi_line_assert(m: T.int32, n: T.int32):
    assert (
        m * n <= 1048576
        and m > 0
        and n > 0
    ), "shape too large"
    T.evaluate(0)
