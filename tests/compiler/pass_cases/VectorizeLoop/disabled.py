# flags: {"config": {"tir.disable_vectorize": true}}
@T.prim_func
def main(A: T.Buffer((16,), "float32")):
    for i in T.vectorized(4):
        A[i] = T.float32(1)

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16,), "float32")):
        for i in range(4):
            A[i] = T.float32(1.0)
