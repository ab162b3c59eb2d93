# Imports without `as T`: `from tvm.script import tir` (namespace named tir) and `import tvm.script.tir as tt`.
from tvm.script import ir, tir


# the namespace used under its module name
@tir.prim_func
def unaliased(A: tir.Buffer((16,), "float32")):
    for i in tir.vectorized(16):
        A[i] = tir.float32(0)


# an IR module with the unaliased ir namespace
@ir.ir_module
class Unaliased:
    @tir.prim_func
    def main(A: tir.Buffer((4, 4), "float32"), B: tir.Buffer((4, 4), "float32")):
        for i, j in tir.grid(4, 4):
            with tir.block("B"):
                vi, vj = tir.axis.remap("SS", [i, j])
                B[vi, vj] = A[vj, vi]
