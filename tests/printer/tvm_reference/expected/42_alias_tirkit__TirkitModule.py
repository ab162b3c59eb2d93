# from tvm.script import ir as I
# from tvm.script import tirx as T

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(A: T.Buffer((8, 8), "float32")):
        T.func_attr({"tir.noalias": True})
        # with T.sblock("root"):
        for i, j in T.grid(8, 8):
            with T.sblock("zero"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads()
                T.writes(A[vi, vj])
                A[vi, vj] = T.float32(0.0)
