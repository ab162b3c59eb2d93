from tvm.script import tir as T


@T.prim_func
def scale_rows(x: T.handle, y: T.handle) -> None:
    X = T.match_buffer(x, [8, 4])
    Y = T.match_buffer(y, [8, 4])
    # the handles stay handles: the formatter does not fold them into T.Buffer parameters
    for r, k in T.grid(8, 4):
        Y[r,k] = X[r,k]*T.float32(3)


@T.prim_func
def mixed(p: T.handle, Q: T.Buffer((4,), "int8")):
    P = T.match_buffer(p, (4,), "int8")
    for t in range(4):
        Q[t] = P[t]+Q[t]
# output
from tvm.script import tir as T


@T.prim_func
def scale_rows(x: T.handle, y: T.handle) -> None:
    X = T.match_buffer(x, (8, 4))
    Y = T.match_buffer(y, (8, 4))
    # the handles stay handles: the formatter does not fold them into T.Buffer parameters
    for r, k in T.grid(8, 4):
        Y[r, k] = X[r, k] * T.float32(3)


@T.prim_func
def mixed(p: T.handle, Q: T.Buffer((4,), "int8")):
    P = T.match_buffer(p, (4,), "int8")
    for t in range(4):
        Q[t] = P[t] + Q[t]
