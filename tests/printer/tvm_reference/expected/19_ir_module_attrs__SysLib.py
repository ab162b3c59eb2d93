# from tvm.script import ir as I
# from tvm.script import tirx as T

@I.ir_module
class Module:
    I.module_attrs({"runtime": "cpp", "system_lib_prefix": "mylib_"})
    @T.prim_func
    def copy(A: T.Buffer((64,), "float32"), B: T.Buffer((64,), "float32")):
        for i in range(64):
            B[i] = A[i]

    @T.prim_func
    def fill(A: T.Buffer((64,), "float32"), v: T.float32):
        for i in range(64):
            A[i] = v
