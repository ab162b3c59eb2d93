@T.prim_func
def main(A: T.Buffer((64,), "float32"), n: T.int32):
    for i in range(8):
        for j in range(8):
            if i * 8 + j < 64:
                A[i * 8 + j] = A[(i * 8 + j) // 8 * 8 + (i * 8 + j) % 8] * T.float32(2)
            else:
                A[0] = T.float32(0)
    for k in range(4):
        x: T.int32 = 3
        A[T.min(k + x, 10)] = T.float32(1)

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((64,), "float32"), n: T.int32):
        for i, j in T.grid(8, 8):
            A[i * 8 + j] = A[i * 8 + j] * T.float32(2.0)
        for k in range(4):
            A[k + 3] = T.float32(1.0)
