from tvm.script import tir as T


# A.access_ptr("r"), T.shift_left(a, b), T.ceildiv(14, 4) and range(n, annotations=...) stay
# as written; a T.Buffer both branches of an `if` use is declared once, before the `if`
@T.prim_func
def calls(a: T.handle, B: T.Buffer((16,), "int32"), out: T.handle("int64")):
    A = T.match_buffer(a, (1024,), "float32")
    T.evaluate(A.access_ptr("r"))
    T.evaluate(A.access_ptr("rw", offset=4, extent=16))
    for i_0 in T.serial(T.ceildiv(14, 4)):
        B[i_0] = T.shift_left(B[i_0], 2) | T.bitwise_and(B[i_0], 15)
    for i in range(16, annotations={"pragma_unroll": 1}):
        B[i] = T.ceildiv(B[i], 4)
    out_1 = T.Buffer((1,), "int64", data=out)
    if B[0] > 0:
        out_1[0] = T.Cast("int64", 10)
    else:
        out_1[0] = T.Cast("int64", 20)
# output
from tvm.script import tir as T


# A.access_ptr("r"), T.shift_left(a, b), T.ceildiv(14, 4) and range(n, annotations=...) stay
# as written; a T.Buffer both branches of an `if` use is declared once, before the `if`
@T.prim_func
def calls(a: T.handle, B: T.Buffer((16,), "int32"), out: T.handle("int64")):
    A = T.match_buffer(a, (1024,), "float32")
    T.evaluate(A.access_ptr("r"))
    T.evaluate(A.access_ptr("rw", offset=4, extent=16))
    for i_0 in T.serial(T.ceildiv(14, 4)):
        B[i_0] = T.shift_left(B[i_0], 2) | T.bitwise_and(B[i_0], 15)
    for i in range(16, annotations={"pragma_unroll": 1}):
        B[i] = T.ceildiv(B[i], 4)
    out_1 = T.Buffer((1,), "int64", data=out)
    if B[0] > 0:
        out_1[0] = T.Cast("int64", 10)
    else:
        out_1[0] = T.Cast("int64", 20)
