@T.prim_func
def main(A: T.Buffer((32,), "float32")):
    for k in range(2):
        B1 = T.decl_buffer((8,), "float32")
        for i in range(8):
            B1[i] = A[i]
        for i in range(8):
            A[i + 8] = B1[i]
    B2 = T.decl_buffer((16,), "float32")
    for i in range(16):
        B2[i] = A[i]
    for i in range(16):
        A[i + 16] = B2[i]

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((32,), "float32")):
        B1 = T.allocate([16], "float32", "global")
        for k in range(2):
            B1_1 = T.decl_buffer((8,), data=B1)
            for i in range(8):
                B1_1[i] = A[i]
            for i in range(8):
                A[i + 8] = B1_1[i]
        B2 = T.decl_buffer((16,), data=B1)
        for i in range(16):
            B2[i] = A[i]
        for i in range(16):
            A[i + 16] = B2[i]
