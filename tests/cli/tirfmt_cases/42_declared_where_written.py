from tvm.script import tir as T


# what the user wrote stays where and how they wrote it: shape vars on lines of their own, a
# free buffer above the loop nest that uses it, blocks without T.reads / T.writes (the parser
# infers them), float literals as written
@T.prim_func
def f(a: T.handle, b: T.handle):
    m = T.int32()
    n = T.int32()
    A = T.match_buffer(a, (m, n))
    B = T.match_buffer(b, (m, n))
    for i, j in T.grid(m, n):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj]*T.float32(2)+T.float32(1e-5)


@T.prim_func
def g(a: T.handle):
    A = T.match_buffer(a, (16,))
    A_flat = T.Buffer((16,), data=A.data)
    for i in range(4):
        for j in range(4):
            A_flat[i*4 + j] = T.float32(0)


@T.prim_func
def h(a: T.handle):
    A = T.match_buffer(a, (16,))
    for i in range(4):
        for j in range(4):
            A_flat = T.Buffer((16,), data=A.data)
            A_flat[i*4 + j] = T.float32(0.5)
# output
from tvm.script import tir as T


# what the user wrote stays where and how they wrote it: shape vars on lines of their own, a
# free buffer above the loop nest that uses it, blocks without T.reads / T.writes (the parser
# infers them), float literals as written
@T.prim_func
def f(a: T.handle, b: T.handle):
    m = T.int32()
    n = T.int32()
    A = T.match_buffer(a, (m, n))
    B = T.match_buffer(b, (m, n))
    for i, j in T.grid(m, n):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] * T.float32(2) + T.float32(1e-5)


@T.prim_func
def g(a: T.handle):
    A = T.match_buffer(a, (16,))
    A_flat = T.Buffer((16,), data=A.data)
    for i in range(4):
        for j in range(4):
            A_flat[i * 4 + j] = T.float32(0)


@T.prim_func
def h(a: T.handle):
    A = T.match_buffer(a, (16,))
    for i in range(4):
        for j in range(4):
            A_flat = T.Buffer((16,), data=A.data)
            A_flat[i * 4 + j] = T.float32(0.5)
