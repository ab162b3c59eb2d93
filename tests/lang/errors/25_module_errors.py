# IR module errors: a call to a function the module does not define, a duplicate function name.
from tvm.script import ir as I
from tvm.script import tir as T


# calling a missing subroutine
@I.ir_module
class MissingCallee:
    @T.prim_func
    def main(A: T.Buffer((4,), "float32")):
        MissingCallee.helpr(A.data)  # error: has no function 'helpr'
#       ^^^^^^^^^^^^^^^^^^^

    @T.prim_func(private=True)
    def helper(a: T.handle("float32")):
        T.evaluate(0)


# two functions with the same name
@I.ir_module
class Duplicate:
    @T.prim_func
    def main(A: T.Buffer((4,), "float32")):
        A[0] = T.float32(0)

    @T.prim_func
    def main(A: T.Buffer((4,), "float32")):  # error: duplicate function 'main'
#       ^^^^
        A[0] = T.float32(1)
