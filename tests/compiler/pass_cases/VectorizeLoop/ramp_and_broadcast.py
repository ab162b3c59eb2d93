@T.prim_func
def main(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32"), n: T.int32):
    for j in range(4):
        for i in T.vectorized(4):
            A[j * 4 + i] = B[j * 4 + i] * T.float32(2) + T.Cast("float32", i)

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32"), n: T.int32):
        for j in range(4):
            A[j * 4:j * 4 + 4] = B[T.Ramp(j * 4, 1, 4)] * T.Broadcast(T.float32(2.0), 4) + T.Cast("float32x4", T.Ramp(0, 1, 4))
