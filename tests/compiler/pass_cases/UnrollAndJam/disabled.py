# flags: {"config": {"tirkit.disable_unroll_and_jam": true}}
@T.prim_func
def main(A: T.Buffer((64, 32), "float32"), B: T.Buffer((64,), "float32")):
    T.func_attr({"tir.noalias": True})
    for i in T.parallel(64):
        for k in range(32):
            B[i] = B[i] + A[i, k]

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((64, 32), "float32"), B: T.Buffer((64,), "float32")):
        T.func_attr({"tir.noalias": True})
        for i in T.parallel(64):
            for k in range(32):
                B[i] = B[i] + A[i, k]
