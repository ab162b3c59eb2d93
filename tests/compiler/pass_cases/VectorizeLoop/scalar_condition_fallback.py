@T.prim_func
def main(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
    for i in T.vectorized(7):
        A[i + 1] = T.if_then_else(i < 3, B[i], T.float32(0)) + T.float32(1)

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
        for i_s in range(7):
            A[i_s + 1] = T.if_then_else(i_s < 3, B[i_s], T.float32(0.0)) + T.float32(1.0)
