@T.prim_func
def main(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32"), n: T.int32):
    for i in range(16):
        B[i] = T.Select(i < n, T.Select(i > 2, A[i], T.float32(1)), T.float32(0)) + T.Select(A[0] > T.float32(0), T.float32(1), T.float32(2))

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32"), n: T.int32):
        for i in range(16):
            B[i] = T.Select(i < n, T.if_then_else(i > 2, A[i], T.float32(1.0)), T.float32(0.0)) + T.Select(A[0] > T.float32(0.0), T.float32(1.0), T.float32(2.0))
