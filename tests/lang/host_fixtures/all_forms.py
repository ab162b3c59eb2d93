"""Host-layer fixture: every way of spelling a TVMScript unit decorator (never executed)."""
# pylint: skip-file
import tvm
import tvm.script
from tvm.script import ir as I
from tvm.script import ir_module
from tvm.script import tir as T
from tvm.script.tir import prim_func


@T.prim_func
def plain(A: T.Buffer((128,), "float32")):
    for i in range(128):
        A[i] = T.float32(0)  # zero


@T.prim_func(private=True)
def private_func(a: T.handle):
    A = T.match_buffer(a, (16,), "int32")
    A[0] = 1


@T.prim_func()
def empty_call():
    T.evaluate(0)


@prim_func
def imported_directly():
    pass


@tvm.script.tir.prim_func
def fully_qualified():
    pass


@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((4,), "float32")):
        # inner comment
        for i in T.serial(4):
            A[i] = A[i] + T.float32(1)

    @T.prim_func(private=True)
    def helper():
        T.evaluate(0)


@ir_module
class Module2:
    @T.prim_func
    def main():
        pass


@tvm.script.ir_module
class Module3:
    @T.prim_func
    def main():
        pass


def gen_matmul(n, m):
    @T.prim_func
    def f(A: T.Buffer((n, m), "float32")):
        pass

    return f


class TestLowering:
    @T.prim_func
    def before(A: T.Buffer((8,), "float32")):
        A[0] = T.float32(0)


def not_a_unit():
    return T.prim_func
