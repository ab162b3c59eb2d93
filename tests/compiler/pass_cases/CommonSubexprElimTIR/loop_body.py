@T.prim_func
def main(A: T.Buffer((16,), "int32"), x: T.int32, y: T.int32):
    A[0] = x + y
    A[1] = A[x * y] + x - y
    for i in range(4):
        A[i] = i * x + A[i * x]

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16,), "int32"), x: T.int32, y: T.int32):
        A[0] = x + y
        A[1] = A[x * y] + x - y
        for i in range(4):
            cse_var_1: T.int32 = i * x
            A[i] = cse_var_1 + A[cse_var_1]
