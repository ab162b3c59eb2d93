@T.prim_func
def main(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
    for i in range(16):
        B[i] = T.Select(i > 0, A[i - 1], T.float32(0))

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
        for i in range(16):
            B[i] = T.if_then_else(i > 0, A[i - 1], T.float32(0.0))
