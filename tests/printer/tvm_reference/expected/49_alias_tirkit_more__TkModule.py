# from tvm.script import ir as I
# from tvm.script import tirx as T

@I.ir_module
class Module:
    @T.prim_func
    def lowered(A: T.Buffer((256,), "float32")):
        for i in T.parallel(256):
            A[i] = A[i] * T.float32(0.5)

    @T.prim_func(s_tir=True)
    def reduce(A: T.Buffer((16, 16), "float32"), B: T.Buffer((16,), "float32")):
        # with T.sblock("root"):
        for i, k in T.grid(16, 16):
            with T.sblock("B"):
                vi, vk = T.axis.remap("SR", [i, k])
                T.reads(A[vi, vk])
                T.writes(B[vi])
                with T.init():
                    B[vi] = T.float32(0.0)
                B[vi] = B[vi] + A[vi, vk]
