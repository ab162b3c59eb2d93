# An init in a block without reduction iter vars stays unguarded; a nested block's init is
# lowered too and a block without init is left alone.
@T.prim_func
def main(A: T.Buffer((16, 16), "float32"), B: T.Buffer((16,), "float32"), C: T.Buffer((16,), "float32")):
    for i in range(16):
        with T.block("outer"):
            vi = T.axis.spatial(16, i)
            with T.init():
                C[vi] = T.float32(1)
            for k in range(16):
                with T.block("inner"):
                    vk = T.axis.reduce(16, k)
                    with T.init():
                        B[vi] = T.float32(0)
                    B[vi] = B[vi] + A[vi, vk]
            with T.block("copy"):
                C[vi] = C[vi] * B[vi]


# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16, 16), "float32"), B: T.Buffer((16,), "float32"), C: T.Buffer((16,), "float32")):
        # with T.block("root"):
        for i in range(16):
            with T.block("outer"):
                vi = T.axis.spatial(16, i)
                T.reads(A[vi, 0:16])
                T.writes(C[vi], B[vi])
                C[vi] = T.float32(1.0)
                for k in range(16):
                    with T.block("inner"):
                        vk = T.axis.reduce(16, k)
                        T.reads(A[vi, vk])
                        T.writes(B[vi])
                        if vk == 0:
                            B[vi] = T.float32(0.0)
                        B[vi] = B[vi] + A[vi, vk]
                with T.block("copy"):
                    T.reads(C[vi], B[vi])
                    T.writes(C[vi])
                    C[vi] = C[vi] * B[vi]
