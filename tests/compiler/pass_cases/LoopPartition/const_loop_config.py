# flags: {"config": {"tir.LoopPartition": {"partition_const_loop": true}}}
@T.prim_func
def main(A: T.Buffer((16,), "float32"), B: T.Buffer((14,), "float32")):
    for i in range(16):
        if T.likely(i < 14):
            B[i] = A[i] + T.float32(1)

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16,), "float32"), B: T.Buffer((14,), "float32")):
        for i in range(14):
            B[i] = A[i] + T.float32(1.0)
        for i in range(2):
            T.evaluate(0)
