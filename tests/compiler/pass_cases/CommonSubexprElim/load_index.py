@T.prim_func
def main(A: T.Buffer((16,), "int32"), x: T.int32, y: T.int32):
    A[0] = x + y
    A[1] = A[x + y]

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16,), "int32"), x: T.int32, y: T.int32):
        cse_var_1: T.int32 = x + y
        A[0] = cse_var_1
        A[1] = A[cse_var_1]
