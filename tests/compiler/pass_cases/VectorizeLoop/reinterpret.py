@T.prim_func
def main(A: T.Buffer((16,), "int32"), B: T.Buffer((16,), "float32")):
    for i in T.vectorized(4):
        B[i] = T.reinterpret("float32", A[i] + 127 << 23)

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16,), "int32"), B: T.Buffer((16,), "float32")):
        B[0:4] = T.reinterpret("float32x4", A[T.Ramp(0, 1, 4)] + T.Broadcast(127, 4) << T.Broadcast(23, 4))
