@T.prim_func
def main(A: T.Buffer((16,), "float32")):
    for i in range(4):
        A[i] = T.float32(1)
    for i in range(4):
        A[i + 4] = T.float32(2)

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16,), "float32")):
        for i in range(4):
            A[i] = T.float32(1.0)
        for i in range(4):
            A[i + 4] = T.float32(2.0)
