from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
        T.func_attr({"global_symbol": "main"})
        for i in range(8):
            B[i] = A[i]   +   T.float32(1)

    # the helper
    @T.prim_func(private=True)
    def helper(A: T.Buffer((8,), "float32")):
        for i in range(8):
            A[i] = T.float32(0)
# output
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
        T.func_attr({"global_symbol": "main"})
        for i in range(8):
            B[i] = A[i] + T.float32(1)

    # the helper
    @T.prim_func(private=True)
    def helper(A: T.Buffer((8,), "float32")):
        for i in range(8):
            A[i] = T.float32(0)
