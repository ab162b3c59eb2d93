# flags: dialect=tirx
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16,), "int32")):
        T.func_attr({"global_symbol": "main"})
        for i in range(16):
            A[i] = Module.add_one(A[i])

    @T.prim_func(private=True)
    def add_one(a: T.int32) -> T.int32:
        T.ret(a + 1)
# output
# from tvm.script import ir as I
# from tvm.script import tirx as T

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add_one(a: T.int32) -> T.int32:
        return a + 1

    @T.prim_func
    def main(A: T.Buffer((16,), "int32")):
        for i in range(16):
            A[i] = Module.add_one(A[i])
