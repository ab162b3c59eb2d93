from tvm.script import ir as I
from tvm.script import tir as T


# T.cast(x, dtype="int32") keeps its keyword, and a cast of a literal (which the parser folds
# into a constant) stays a cast
@T.prim_func
def casts(A: T.Buffer((16,), "int32"), B: T.Buffer((1,), "float64")):
    for i in T.serial(16):
        A[i] = T.cast(T.ceil(T.log2(T.cast(i + 1025, "float64"), dtype="float64"), dtype="float64"), dtype="int32")
    B[0] = T.cast(14, "float64")
    B[0] = B[0]+T.cast(2, dtype="float64")
    A[0] = T.cast(3, "int32")


# a var declared T.Var("n", dtype="int32") stays so (not T.int32())
@I.ir_module(check_well_formed=False)
class Mod:
    @T.prim_func
    def main(A: T.Buffer((25,), "int32")):
        n = T.Var("n", dtype="int32")
        for j in T.vectorized(n):
            A[j] = 3
# output
from tvm.script import ir as I
from tvm.script import tir as T


# T.cast(x, dtype="int32") keeps its keyword, and a cast of a literal (which the parser folds
# into a constant) stays a cast
@T.prim_func
def casts(A: T.Buffer((16,), "int32"), B: T.Buffer((1,), "float64")):
    for i in T.serial(16):
        A[i] = T.cast(
            T.ceil(T.log2(T.cast(i + 1025, "float64"), dtype="float64"), dtype="float64"),
            dtype="int32"
        )
    B[0] = T.cast(14, "float64")
    B[0] = B[0] + T.cast(2, dtype="float64")
    A[0] = T.cast(3, "int32")


# a var declared T.Var("n", dtype="int32") stays so (not T.int32())
@I.ir_module(check_well_formed=False)
class Mod:
    @T.prim_func
    def main(A: T.Buffer((25,), "int32")):
        n = T.Var("n", dtype="int32")
        for j in T.vectorized(n):
            A[j] = 3
