@T.prim_func
def main(A: T.Buffer((64,), "int32"), x: T.int32, y: T.int32, z: T.int32):
    A[0] = (x + y) * z + 1
    A[1] = (x + y) * z - (x + y)
    for i in range(4):
        A[i + 8] = (x + y + i) * (x + y + i) + (x + y) * z
        A[i + 16] = (x + y + i) * 2

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((64,), "int32"), x: T.int32, y: T.int32, z: T.int32):
        cse_var_2: T.int32 = x + y
        cse_var_1: T.int32 = cse_var_2 * z
        A[0] = cse_var_1 + 1
        A[1] = cse_var_1 - cse_var_2
        for i in range(4):
            cse_var_3: T.int32 = cse_var_2 + i
            A[i + 8] = cse_var_3 * cse_var_3 + cse_var_1
            A[i + 16] = cse_var_3 * 2
