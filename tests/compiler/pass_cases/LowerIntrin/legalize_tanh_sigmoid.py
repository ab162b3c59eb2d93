# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((16,), "float32")):
    for i in range(16):
        A[i] = T.tanh(A[i])
        A[i] = T.sigmoid(A[i])
        A[i] = T.rsqrt(A[i])

# output
# from tvm.script import ir as I
# from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16,), "float32")):
        for i in range(16):
            A[i] = T.Select(A[i] >= T.float32(0.0), (T.float32(1.0) - T.call_llvm_pure_intrin("float32", "llvm.exp", T.uint32(1), T.float32(-2.0) * A[i])) / (T.float32(1.0) + T.call_llvm_pure_intrin("float32", "llvm.exp", T.uint32(1), T.float32(-2.0) * A[i])), (T.call_llvm_pure_intrin("float32", "llvm.exp", T.uint32(1), T.float32(2.0) * A[i]) - T.float32(1.0)) / (T.call_llvm_pure_intrin("float32", "llvm.exp", T.uint32(1), T.float32(2.0) * A[i]) + T.float32(1.0)))
            A[i] = T.float32(1.0) / (T.float32(1.0) + T.call_llvm_pure_intrin("float32", "llvm.exp", T.uint32(1), T.float32(0.0) - A[i]))
            A[i] = T.float32(1.0) / T.call_llvm_pure_intrin("float32", "llvm.sqrt", T.uint32(1), A[i])
