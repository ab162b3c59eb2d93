from tvm.script import tir as T


@T.prim_func
def pokes(A: T.Buffer((4,), "int32")):
    # T.evaluate around a call and T.int32 around a literal are kept where written
    T.evaluate(T.call_extern("int32", "poke", T.int32(7)))
    T.call_extern("int32", "poke", 8)
    for i in range(4):
        A[i] = A[i]+T.int32(1)+2
# output
from tvm.script import tir as T


@T.prim_func
def pokes(A: T.Buffer((4,), "int32")):
    # T.evaluate around a call and T.int32 around a literal are kept where written
    T.evaluate(T.call_extern("int32", "poke", T.int32(7)))
    T.call_extern("int32", "poke", 8)
    for i in range(4):
        A[i] = A[i] + T.int32(1) + 2
