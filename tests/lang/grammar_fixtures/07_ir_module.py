from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    I.module_attrs({"system_lib_prefix": "lib_"})

    @T.prim_func(private=True)
    def add_one(A: T.Buffer((16,), "int32"), B: T.Buffer((16,), "int32")):
        for i in range(16):
            with T.block("B"):
                vi = T.axis.spatial(16, i)
                B[vi] = A[vi] + 1

    @T.prim_func
    def main(A: T.Buffer((16,), "int32"), C: T.Buffer((16,), "int32")):
        cls = Module
        B = T.alloc_buffer((16,), "int32")
        cls.add_one(A, B)
        T.evaluate(cls.add_one(B, C))
