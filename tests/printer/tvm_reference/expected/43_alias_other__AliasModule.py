# from tvm.script import ir as I
# from tvm.script import tirx as T

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(A: T.Buffer((4, 4), "int32")):
        # with T.sblock("root"):
        for i, j in T.grid(4, 4):
            with T.sblock("A"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads()
                T.writes(A[vi, vj])
                A[vi, vj] = vi * 4 + vj
