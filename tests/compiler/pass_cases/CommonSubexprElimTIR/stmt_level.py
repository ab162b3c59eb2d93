@T.prim_func
def main(A: T.Buffer((64,), "int32"), x: T.int32, y: T.int32, z: T.int32):
    A[0] = (x + y) * z + (x + y) * z
    A[1] = (x + y) + z
    for i in range(4):
        A[i * 4 + x] = (i * 4 + x) * 2 + y * z
    if x > 0:
        A[2] = x * y + 1
    else:
        A[3] = x * y - 1

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((64,), "int32"), x: T.int32, y: T.int32, z: T.int32):
        cse_var_1: T.int32 = (x + y) * z
        A[0] = cse_var_1 + cse_var_1
        A[1] = x + y + z
        for i in range(4):
            cse_var_2: T.int32 = i * 4 + x
            A[cse_var_2] = cse_var_2 * 2 + y * z
        if x > 0:
            A[2] = x * y + 1
        else:
            A[3] = x * y - 1
