# flags: {"config": {"tir.UnrollLoop": {"auto_max_step": 16}}}
@T.prim_func
def main(A: T.Buffer((16,), "float32")):
    for i in range(4):
        for j in range(3):
            A[i * 4 + j] = T.float32(1)
    for k in range(64):
        A[k % 16] = T.float32(2)

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16,), "float32")):
        A[T.Add(T.Mul(0, 4), 0)] = T.float32(1.0)
        A[T.Mul(0, 4) + 1] = T.float32(1.0)
        A[T.Mul(0, 4) + 2] = T.float32(1.0)
        A[T.Add(T.Mul(1, 4), 0)] = T.float32(1.0)
        A[T.Mul(1, 4) + 1] = T.float32(1.0)
        A[T.Mul(1, 4) + 2] = T.float32(1.0)
        A[T.Add(T.Mul(2, 4), 0)] = T.float32(1.0)
        A[T.Mul(2, 4) + 1] = T.float32(1.0)
        A[T.Mul(2, 4) + 2] = T.float32(1.0)
        A[T.Add(T.Mul(3, 4), 0)] = T.float32(1.0)
        A[T.Mul(3, 4) + 1] = T.float32(1.0)
        A[T.Mul(3, 4) + 2] = T.float32(1.0)
        for k in range(64):
            A[k % 16] = T.float32(2.0)
