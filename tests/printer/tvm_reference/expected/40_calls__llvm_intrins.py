# from tvm.script import tirx as T

@T.prim_func
def llvm_intrins(A: T.Buffer((4,), "float32x4"), B: T.Buffer((4,), "float32x4"), C: T.Buffer((4,), "float32x4")):
    for i in range(4):
        C[i] = T.call_llvm_pure_intrin("float32x4", "llvm.fma", T.uint32(3), A[i], B[i], C[i])
    for i in range(4):
        C[i] = T.call_llvm_intrin("float32x4", "llvm.sqrt", T.uint32(1), C[i])
