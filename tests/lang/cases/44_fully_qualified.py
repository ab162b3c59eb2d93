# Fully qualified decorators: `import tvm` then @tvm.script.ir_module and @tvm.script.tir.prim_func.
import tvm
from tvm.script import tir as T


# module decorated through the tvm package (seed 003's printed form)
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
                A[vi] = T.Cast("float32", vi + 100)


# prim_func decorated with the fully qualified tir name
@tvm.script.tir.prim_func
def fq_func(A: T.Buffer((8,), "float32")):
    for i in range(8):
        A[i] = T.float32(0)


# a module whose functions use the fully qualified decorator too
@tvm.script.ir_module
class FQModule:
    @tvm.script.tir.prim_func
    def main(A: T.Buffer((4,), "int32")):
        for i in range(4):
            A[i] = i
