@T.prim_func
def main(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
    for i in range(16, annotations={"pragma_loop_partition_hint": 1}):
        if T.likely(i >= 2):
            B[i] = A[i - 2]
        else:
            B[i] = T.float32(0)

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
        for i in T.serial(2, annotations={"pragma_loop_partition_hint": 1}):
            B[i] = T.float32(0.0)
        for i in T.serial(14, annotations={"pragma_loop_partition_hint": 1}):
            B[i + 2] = A[i + 2 - 2]
