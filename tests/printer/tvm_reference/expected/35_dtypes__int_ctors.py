# from tvm.script import tirx as T

@T.prim_func
def int_ctors(A: T.Buffer((8,), "int64")):
    A[0] = T.Cast("int64", T.int8(-8))
    A[1] = T.Cast("int64", T.int16(300))
    A[2] = T.Cast("int64", 70000)
    A[3] = T.int64(1099511627776)
    A[4] = T.Cast("int64", T.uint8(255))
    A[5] = T.Cast("int64", T.uint16(65535))
    A[6] = T.Cast("int64", T.uint32(4000000000))
    A[7] = T.Cast("int64", T.uint64(7))
