import tvm
from tvm.script import tir as T


@tvm.script.tir.prim_func
def fq(A: T.Buffer((8,), "float32")):
    for i in range(8):
        A[i] = T.float32(0)


@T.prim_func(private = True)
def hidden(A: T.Buffer((8,), "float32")):
    for i in range(8):
        A[i] = T.float32( 1 )
# output
import tvm
from tvm.script import tir as T


@tvm.script.tir.prim_func
def fq(A: T.Buffer((8,), "float32")):
    for i in range(8):
        A[i] = T.float32(0)


@T.prim_func(private=True)
def hidden(A: T.Buffer((8,), "float32")):
    for i in range(8):
        A[i] = T.float32(1)
