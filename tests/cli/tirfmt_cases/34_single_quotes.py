from tvm.script import tir as T


# strings written in single quotes print in double quotes (their value is what the user wrote)
@T.prim_func
def f(A: T.Buffer((4,), 'float32')):
    for i in range(4):
        with T.block('block'):
            vi = T.axis.S(4, i)
            A[vi] = T.float32(0)
# output
from tvm.script import tir as T


# strings written in single quotes print in double quotes (their value is what the user wrote)
@T.prim_func
def f(A: T.Buffer((4,), "float32")):
    for i in range(4):
        with T.block("block"):
            vi = T.axis.S(4, i)
            A[vi] = T.float32(0)
