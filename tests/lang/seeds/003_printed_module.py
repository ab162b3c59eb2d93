# from tvm.script import tir as T
@tvm.script.ir_module
class Module:
    @T.prim_func
    def main(a: T.handle) -> None:
        A = T.match_buffer(a, [16], dtype="float32")
        # body
        # with T.block("root")
        for i_0, i_1 in T.grid(7, 10):
            with T.block("block"):
                vi = T.axis.spatial(16, i_0 * 10 + i_1)
                T.where(i_0 * 10 + i_1 < 16)
                T.reads([])
                T.writes([A[vi]])
                A[vi] = i_0 * 10 + i_1 + 100
