# from tvm.script import ir as I
# from tvm.script import tirx as T

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def helper(A: T.Buffer((16,), "float32")):
        for i in range(16):
            if i > 7:
                T.break_loop()
            A[i] = T.float32(1.0)

    @T.prim_func(s_tir=True)
    def main(A: T.Buffer((16,), "float32")):
        # with T.sblock("root"):
        for i in range(16):
            with T.sblock("A"):
                vi = T.axis.spatial(16, i)
                T.reads()
                T.writes(A[vi])
                A[vi] = T.float32(0.0)
