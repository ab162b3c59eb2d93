@T.prim_func
def main(A: T.Buffer((16,), "float32"), C: T.Buffer((16,), "float32")):
    B1 = T.decl_buffer((16,), "float32")
    for i in range(16):
        B1[i] = A[i] + T.float32(1)
    for i in range(16):
        C[i] = B1[i] * T.float32(2)
    B2 = T.decl_buffer((16,), "float32")
    for i in range(16):
        B2[i] = C[i] + T.float32(1)
    for i in range(16):
        A[i] = B2[i] * T.float32(2)

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16,), "float32"), C: T.Buffer((16,), "float32")):
        B1 = T.decl_buffer((16,))
        for i in range(16):
            B1[i] = A[i] + T.float32(1.0)
        for i in range(16):
            C[i] = B1[i] * T.float32(2.0)
        B2 = T.decl_buffer((16,), data=B1.data)
        for i in range(16):
            B2[i] = C[i] + T.float32(1.0)
        for i in range(16):
            A[i] = B2[i] * T.float32(2.0)
