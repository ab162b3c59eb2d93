# break / continue outside of any loop.
from tvm.script import tir as T


# break at function level
@T.prim_func
def stray_break(A: T.Buffer((4,), "float32")):
    A[0] = T.float32(0)
    break  # error: 'break' outside loop
#   ^^^^^


# continue inside an if that is not inside a loop
@T.prim_func
def stray_continue(A: T.Buffer((4,), "float32"), n: T.int32):
    if n > 0:
        continue  # error: 'continue' not properly in loop
#       ^^^^^^^^
    A[0] = T.float32(1)
