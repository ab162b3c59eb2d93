# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((16,), "int32"), n: T.int32):
    for i in range(16):
        A[i] = T.floordiv(A[i], 8) + T.floormod(A[i], 8)
        A[i] = T.floordiv(i, 3) + T.floormod(i, 3)
        A[i] = T.floordiv(i - 5, 3) + T.floormod(i - 5, 3)
        A[i] = T.floordiv(A[i], 3) + T.floormod(A[i], 3)
        A[i] = T.floordiv(A[i], n) + T.floormod(A[i], n)

# output
# from tvm.script import ir as I
# from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16,), "int32"), n: T.int32):
        for i in range(16):
            A[i] = (A[i] >> 3) + (A[i] & 7)
            A[i] = T.Div(i, 3) + T.truncmod(i, 3)
            A[i] = T.Div(i + 1, 3) - 2 + T.truncmod(i + 1, 3)
            A[i] = T.Div(A[i], 3) + (T.truncmod(A[i], 3) >> 31) + (T.truncmod(A[i], 3) + (3 & T.truncmod(A[i], 3) >> 31))
            rmod = T.int32()
            rdiv = T.int32()
            rmod_1 = T.int32()
            A[i] = T.Let(T.Let(T.Select(n >= 0 and rmod >= 0 or n < 0 and rmod <= 0, rdiv, rdiv - 1), where={rdiv: T.Div(A[i], n)}), where={rmod: T.truncmod(A[i], n)}) + T.Let(T.Select(n >= 0 and rmod_1 >= 0 or n < 0 and rmod_1 <= 0, rmod_1, rmod_1 + n), where={rmod_1: T.truncmod(A[i], n)})
