# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float64")):
    for i in range(16):
        A[i] = T.exp(A[i]) + T.sqrt(A[i]) + T.erf(A[i]) + T.atan(A[i]) + T.pow(A[i], T.float32(2))
        B[i] = T.log(B[i]) + T.erf(B[i]) + T.fabs(B[i])

# output
# from tvm.script import ir as I
# from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float64")):
        for i in range(16):
            A[i] = T.call_llvm_pure_intrin("float32", "llvm.exp", T.uint32(1), A[i]) + T.call_llvm_pure_intrin("float32", "llvm.sqrt", T.uint32(1), A[i]) + T.call_pure_extern("float32", "erff", A[i]) + T.call_pure_extern("float32", "atanf", A[i]) + T.call_llvm_pure_intrin("float32", "llvm.pow", T.uint32(2), A[i], T.float32(2.0))
            B[i] = T.call_llvm_pure_intrin("float64", "llvm.log", T.uint32(1), B[i]) + T.call_pure_extern("float64", "erf", B[i]) + T.call_llvm_pure_intrin("float64", "llvm.fabs", T.uint32(1), B[i])
