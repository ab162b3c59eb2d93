# A reduction over two axes starting at 2 and 0: the guard is the conjunction of both
# `v == dom.min` tests, in iter var order.
@T.prim_func
def main(A: T.Buffer((64, 16, 16), "float32"), B: T.Buffer((64,), "float32")):
    for i, k0, k1 in T.grid(64, 14, 16):
        with T.block("sum"):
            vi = T.axis.spatial(64, i)
            vk0 = T.axis.reduce((2, 16), k0 + 2)
            vk1 = T.axis.reduce(16, k1)
            with T.init():
                B[vi] = T.float32(0)
            B[vi] = B[vi] + A[vi, vk0, vk1]


# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((64, 16, 16), "float32"), B: T.Buffer((64,), "float32")):
        # with T.block("root"):
        for i, k0, k1 in T.grid(64, 14, 16):
            with T.block("sum"):
                vi = T.axis.spatial(64, i)
                vk0 = T.axis.reduce((2, 16), k0 + 2)
                vk1 = T.axis.reduce(16, k1)
                T.reads(A[vi, vk0, vk1])
                T.writes(B[vi])
                if vk0 == 2 and vk1 == 0:
                    B[vi] = T.float32(0.0)
                B[vi] = B[vi] + A[vi, vk0, vk1]
