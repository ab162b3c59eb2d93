# from tvm.script import ir as I
# from tvm.script import tirx as T

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def main(A: T.Buffer((16,), "float32")):
        # with T.sblock("root"):
        for i_0, i_1 in T.grid(7, 10):
            with T.sblock("block"):
                vi = T.axis.spatial(16, i_0 * 10 + i_1)
                T.where(i_0 * 10 + i_1 < 16)
                T.reads()
                T.writes(A[vi])
                A[vi] = T.Cast("float32", vi + 100)
