from tvm.script import tir as T


# `return v` stays `return v` (not T.ret(v)); a buffer's shape= and dtype= written by keyword
# stay keywords
@T.prim_func
def sign(arg: T.int32) -> T.int32:
    if arg > 0:
        return 1
    else:
        return -1


@T.prim_func
def views(a: T.handle, y: T.Buffer((4,), dtype="int8")):
    P = T.match_buffer(a, [1, 4], dtype="int8", elem_offset=0)
    C = T.decl_buffer(shape=[1, 4], dtype="float32")
    D = T.alloc_buffer(shape=(4,))
    B = T.Buffer(shape=[4], dtype="int8", data=P.data)
    for i in range(4):
        y[i] = B[i]+P[0, i]
        C[0, i] = D[i]
# output
from tvm.script import tir as T


# `return v` stays `return v` (not T.ret(v)); a buffer's shape= and dtype= written by keyword
# stay keywords
@T.prim_func
def sign(arg: T.int32) -> T.int32:
    if arg > 0:
        return 1
    else:
        return -1


@T.prim_func
def views(a: T.handle, y: T.Buffer((4,), dtype="int8")):
    P = T.match_buffer(a, (1, 4), dtype="int8", elem_offset=0)
    D = T.alloc_buffer(shape=(4,))
    C = T.decl_buffer(shape=(1, 4), dtype="float32")
    B = T.Buffer(shape=(4,), dtype="int8", data=P.data)
    for i in range(4):
        y[i] = B[i] + P[0, i]
        C[0, i] = D[i]
