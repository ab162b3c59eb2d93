# flags: {"config": {"tir.UnrollLoop": {"auto_max_step": 16, "explicit_unroll": false}}}
@T.prim_func
def main(A: T.Buffer((16,), "float32")):
    for i in range(4):
        A[i] = T.float32(1)
    for j in T.unroll(2):
        A[j] = T.float32(2)

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16,), "float32")):
        for i in T.unroll(4):
            A[i] = T.float32(1.0)
        for j in T.unroll(2):
            A[j] = T.float32(2.0)
