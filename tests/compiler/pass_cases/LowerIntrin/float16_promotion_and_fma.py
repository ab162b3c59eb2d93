# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((16,), "float16"), B: T.Buffer((16,), "float32")):
    for i in range(16):
        A[i] = T.erf(A[i]) + T.exp(A[i])
        B[i] = B[i] * B[i] + T.float32(1)

# output
# from tvm.script import ir as I
# from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16,), "float16"), B: T.Buffer((16,), "float32")):
        for i in range(16):
            A[i] = T.Cast("float16", T.call_pure_extern("float32", "erff", T.Cast("float32", A[i]))) + T.call_llvm_pure_intrin("float16", "llvm.exp", T.uint32(1), A[i])
            B[i] = T.call_llvm_pure_intrin("float32", "llvm.fmuladd", T.uint32(3), B[i], B[i], T.float32(1.0))
