@T.prim_func
def main(A: T.Buffer((16,), "float32"), n: T.int32):
    for i in range(n):
        if i < 8:
            A[i] = A[i + 1] + T.float32(1)

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16,), "float32"), n: T.int32):
        for i in range(n):
            if i < 8:
                A[i] = A[i + 1] + T.float32(1.0)
