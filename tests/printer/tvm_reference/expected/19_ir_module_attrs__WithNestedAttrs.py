# from tvm.script import ir as I
# from tvm.script import tirx as T

@I.ir_module
class Module:
    I.module_attrs({"config": {"flags": ["a", "b"], "opt_level": 3}, "version": 2})
    @T.prim_func
    def main(A: T.Buffer((4,), "int32")):
        for i in range(4):
            A[i] = i * 2
