@T.prim_func
def main(A: T.Buffer((16,), "float32"), B: T.Buffer((14,), "float32")):
    for i in range(16):
        if T.likely(i < 14):
            B[i] = A[i]

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16,), "float32"), B: T.Buffer((14,), "float32")):
        for i in range(16):
            if i < 14:
                B[i] = A[i]
