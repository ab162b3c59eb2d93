# without tir.noalias the arguments may overlap: B's stores could feed A's loads
@T.prim_func
def main(A: T.Buffer((64, 8), "float32"), B: T.Buffer((64,), "float32")):
    for i in range(64):
        for k in range(8):
            B[i] = B[i] + A[i, k]

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((64, 8), "float32"), B: T.Buffer((64,), "float32")):
        for i, k in T.grid(64, 8):
            B[i] = B[i] + A[i, k]
