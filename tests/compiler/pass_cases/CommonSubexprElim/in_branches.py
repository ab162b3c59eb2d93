@T.prim_func
def main(A: T.Buffer((64,), "int32"), x: T.int32, y: T.int32):
    if x > 0:
        A[x * y + 1] = 1
    else:
        A[x * y + 1] = 2
    for i in range(4):
        A[i] = (x - y) * i + (x - y) * i

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((64,), "int32"), x: T.int32, y: T.int32):
        cse_var_2: T.int32 = x - y
        cse_var_1: T.int32 = x * y + 1
        if x > 0:
            A[cse_var_1] = 1
        else:
            A[cse_var_1] = 2
        for i in range(4):
            cse_var_3: T.int32 = cse_var_2 * i
            A[i] = cse_var_3 + cse_var_3
