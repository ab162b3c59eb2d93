from tvm.script import tir as T


@T.prim_func
def staged(a: T.handle, out: T.Buffer((32,), "float32")):
    A = T.match_buffer(a, (32,), "float32")
    tmp = T.alloc_buffer([32], dtype="float32")
    flags = T.alloc_buffer((32,), dtype = "bool")
    acc = T.alloc_buffer((32,))
    for n in range(32):  # float32 is the default dtype, written out all the same above
        with T.block("stage"):
            vn = T.axis.spatial(32, n)
            tmp[vn] = A[vn]
            flags[vn] = tmp[vn] > T.float32(0)
            acc[vn] = T.if_then_else(flags[vn], tmp[vn], T.float32(0))
            out[vn] = acc[vn]
# output
from tvm.script import tir as T


@T.prim_func
def staged(a: T.handle, out: T.Buffer((32,), "float32")):
    A = T.match_buffer(a, (32,), "float32")
    tmp = T.alloc_buffer((32,), dtype="float32")
    flags = T.alloc_buffer((32,), dtype="bool")
    acc = T.alloc_buffer((32,))
    for n in range(32):  # float32 is the default dtype, written out all the same above
        with T.block("stage"):
            vn = T.axis.spatial(32, n)
            tmp[vn] = A[vn]
            flags[vn] = tmp[vn] > T.float32(0)
            acc[vn] = T.if_then_else(flags[vn], tmp[vn], T.float32(0))
            out[vn] = acc[vn]
