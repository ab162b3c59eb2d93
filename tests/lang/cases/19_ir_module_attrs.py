# IR modules with I.module_attrs, comments between functions, and a module with a single function.
from tvm.script import ir as I
from tvm.script import tir as T


# module attrs for a system library, two functions
@I.ir_module
class SysLib:
    I.module_attrs({"system_lib_prefix": "mylib_", "runtime": "cpp"})

    @T.prim_func
    def fill(A: T.Buffer((64,), "float32"), v: T.float32):
        for i in range(64):
            A[i] = v

    # the second kernel copies
    @T.prim_func
    def copy(A: T.Buffer((64,), "float32"), B: T.Buffer((64,), "float32")):
        for i in range(64):
            B[i] = A[i]


# module-level attr holding a nested dict and a list
@I.ir_module
class WithNestedAttrs:
    I.module_attrs({"config": {"opt_level": 3, "flags": ["a", "b"]}, "version": 2})

    @T.prim_func
    def main(A: T.Buffer((4,), "int32")):
        T.func_attr({"global_symbol": "main"})
        for i in range(4):
            A[i] = i * 2


# a module with a single blocked kernel
@I.ir_module
class Single:
    @T.prim_func
    def main(A: T.Buffer((128, 128), "float32"), B: T.Buffer((128, 128), "float32")):
        T.func_attr({"global_symbol": "main", "tir.noalias": True})
        for i, j in T.grid(128, 128):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = A[vi, vj] * T.float32(2)
