@T.prim_func
def main(A: T.Buffer((16,), "int32"), n: T.int32):
    for i in range(4):
        x: T.int32 = i * 2
        A[x] = n
    for i in range(4):
        x: T.int32 = i * 3
        A[x] = n

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16,), "int32"), n: T.int32):
        for i in range(4):
            x: T.int32 = i * 2
            A[x] = n
        for i in range(4):
            x: T.int32 = i * 3
            A[x] = n
