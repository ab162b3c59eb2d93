# IR modules with several PrimFuncs and calls between them (Module.f subroutine calls) and T.call_extern.
from tvm.script import ir as I
from tvm.script import tir as T


# a main function calling a private subroutine through the class name (TIR has no `cls = Module`)
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
        T.func_attr({"global_symbol": "main", "target": T.target("llvm")})
        Module.scale(A.data, B.data, T.float32(2))

    @T.prim_func(private=True)
    def scale(a_data: T.handle("float32"), b_data: T.handle("float32"), factor: T.float32):
        T.func_attr({"target": T.target("llvm")})
        A = T.decl_buffer((16,), data=a_data)
        B = T.decl_buffer((16,), data=b_data)
        for i in range(16):
            B[i] = A[i] * factor


# two public kernels plus a helper called by class name, with an int return value
@I.ir_module
class TwoKernels:
    @T.prim_func
    def add_one(A: T.Buffer((8,), "int32")):
        for i in range(8):
            A[i] = A[i] + TwoKernels.one()

    @T.prim_func
    def sub_one(A: T.Buffer((8,), "int32")):
        for i in range(8):
            A[i] = A[i] - TwoKernels.one()

    @T.prim_func(private=True)
    def one() -> T.int32:
        return 1


# module whose kernel calls an external C function and a pure extern math function
@I.ir_module
class ExternCalls:
    @T.prim_func
    def main(A: T.Buffer((32,), "float32"), B: T.Buffer((32,), "float32")):
        T.func_attr({"global_symbol": "main", "tir.noalias": True})
        for i in range(32):
            B[i] = T.call_pure_extern("float32", "erff", A[i])
        T.evaluate(T.call_extern("int32", "log_done", 32))

    @T.prim_func
    def other(A: T.Buffer((32,), "float32")):
        for i in T.parallel(32):
            A[i] = T.float32(0)
