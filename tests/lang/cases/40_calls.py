# Call forms: call_extern, call_pure_extern, call_intrin, call_llvm_intrin/pure_intrin, call_packed, call_cpacked.
from tvm.script import tir as T


# extern calls returning values and void
@T.prim_func
def externs(A: T.Buffer((16,), "float32"), n: T.int32):
    for i in range(16):
        A[i] = T.call_pure_extern("float32", "expf", A[i])
    T.evaluate(T.call_extern("void", "trace_buffer", A.data, n))
    T.call_extern("int32", "counter_inc")


# LLVM intrinsics by name with the argument count, scalar and vector
@T.prim_func
def llvm_intrins(A: T.Buffer((4,), "float32x4"), B: T.Buffer((4,), "float32x4"), C: T.Buffer((4,), "float32x4")):
    for i in range(4):
        C[i] = T.call_llvm_pure_intrin("float32x4", "llvm.fma", T.uint32(3), A[i], B[i], C[i])
    for i in range(4):
        C[i] = T.call_llvm_intrin("float32x4", "llvm.sqrt", T.uint32(1), C[i])


# call_intrin of a named builtin op, dtype as keyword
@T.prim_func
def intrin(A: T.Buffer((8,), "float32")):
    for i in range(8):
        A[i] = T.call_intrin("float32", "tir.exp", A[i])


# packed calls into runtime functions with stack-free arguments
@T.prim_func
def packed(A: T.Buffer((16, 16), "float32"), B: T.Buffer((16, 16), "float32")):
    T.evaluate(T.call_packed("tvm.contrib.cblas.matmul", A, A, B, False, False))
    T.evaluate(T.call_cpacked("my_cpacked_kernel", A.data, B.data, T.int32(16)))
    T.evaluate(T.tvm_call_packed("tvm.runtime.noop"))
