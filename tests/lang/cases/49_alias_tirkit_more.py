# tirkit imports on one line with both namespaces, a GPU kernel and a reduction.
from tirkit.lang import ir as I, tir as T


# GPU elementwise with thread bindings through the tirkit namespace
@T.prim_func
def tk_gpu(A: T.Buffer((1024,), "float32"), B: T.Buffer((1024,), "float32")):
    for bx in T.thread_binding(8, thread="blockIdx.x"):
        for tx in T.thread_binding(128, thread="threadIdx.x"):
            with T.block("B"):
                vi = T.axis.spatial(1024, bx * 128 + tx)
                B[vi] = T.exp(A[vi])


# a module mixing a blocked and a lowered function
@I.ir_module
class TkModule:
    @T.prim_func
    def reduce(A: T.Buffer((16, 16), "float32"), B: T.Buffer((16,), "float32")):
        for i, k in T.grid(16, 16):
            with T.block("B"):
                vi, vk = T.axis.remap("SR", [i, k])
                with T.init():
                    B[vi] = T.float32(0)
                B[vi] = B[vi] + A[vi, vk]

    @T.prim_func
    def lowered(A: T.Buffer((256,), "float32")):
        for i in T.parallel(256):
            A[i] = A[i] * T.float32(0.5)
