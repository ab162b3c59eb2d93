@T.prim_func
def main(A: T.Buffer((16,), "float32")):
    for i in T.unroll(2):
        for j in range(3):
            x: T.float32 = A[j]
            A[i * 4 + j] = x

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16,), "float32")):
        for j in range(3):
            x: T.float32 = A[j]
            A[T.Mul(0, 4) + j] = x
        for j in range(3):
            x: T.float32 = A[j]
            A[T.Mul(1, 4) + j] = x
