@T.prim_func
def main(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
    for i in T.vectorized(7):
        A[i + 1] = B[i] + T.float32(1)

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
        A[1:8] = B[T.Ramp(0, 1, 7)] + T.Broadcast(T.float32(1.0), 7)
