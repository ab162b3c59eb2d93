@T.prim_func
def main(A: T.Buffer((16,), "float32"), n: T.int32):
    for i in range(16):
        if i < 16:
            A[i] = A[i] + T.float32(0) * T.float32(1)
        if i >= 16:
            A[i] = T.float32(1)
    T.Assert(n == n, "msg")
    for j in range(16):
        A[j // 4 * 4 + j % 4] = T.float32(2)

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16,), "float32"), n: T.int32):
        for i in range(16):
            T.evaluate(0)
        assert T.bool(True), "msg"
        for j in range(16):
            A[j] = T.float32(2.0)
