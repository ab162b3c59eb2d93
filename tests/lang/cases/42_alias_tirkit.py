# The project's own import: `from tirkit.lang import tir as T` / `ir as I`, run by Python in decorator mode.
from tirkit.lang import ir as I
from tirkit.lang import tir as T


# a plain kernel through the tirkit namespace
@T.prim_func
def scale(A: T.Buffer((32,), "float32"), B: T.Buffer((32,), "float32")):
    for i in range(32):
        with T.block("B"):
            vi = T.axis.spatial(32, i)
            B[vi] = A[vi] * T.float32(3)


# a module through the tirkit ir namespace
@I.ir_module
class TirkitModule:
    @T.prim_func
    def main(A: T.Buffer((8, 8), "float32")):
        T.func_attr({"global_symbol": "main", "tir.noalias": True})
        for i, j in T.grid(8, 8):
            with T.block("zero"):
                vi, vj = T.axis.remap("SS", [i, j])
                A[vi, vj] = T.float32(0)


# private prim_func with arguments to the decorator
@T.prim_func(private=True)
def helper(x: T.int32) -> T.int32:
    return x * 2
