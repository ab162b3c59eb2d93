@T.prim_func
def main(A: T.Buffer((16,), "float32"), n: T.int32):
    for i in range(16):
        A[i] = T.Select(i < n, T.Cast("float32", i) * T.float32(2), T.exp(T.float32(1)))

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16,), "float32"), n: T.int32):
        for i in range(16):
            A[i] = T.Select(i < n, T.Cast("float32", i) * T.float32(2.0), T.exp(T.float32(1.0)))
