@T.prim_func
def main(A: T.Buffer((16,), "float32"), n: T.int32):
    for i in range(16):
        if n > 1:
            T.evaluate(0)
    x: T.int32 = n * 4
    for j in range(n):
        A[j] = A[j]

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16,), "float32"), n: T.int32):
        T.evaluate(0)
