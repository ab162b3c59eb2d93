# from tvm.script import ir as I
# from tvm.script import tirx as T

@I.ir_module
class Module:
    @T.prim_func
    def other(A: T.Buffer((32,), "float32")):
        for i in T.parallel(32):
            A[i] = T.float32(0.0)

    @T.prim_func
    def main(A: T.Buffer((32,), "float32"), B: T.Buffer((32,), "float32")):
        T.func_attr({"tir.noalias": True})
        for i in range(32):
            B[i] = T.call_pure_extern("float32", "erff", A[i])
        T.call_extern("int32", "log_done", 32)
