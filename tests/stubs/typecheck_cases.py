"""Typeshed-style cases for the main signatures of the TVMScript stubs: mypy (with the tirkit
plugin and ``--warn-unused-ignores``) must accept every ``assert_type`` and need every
``# type: ignore``. Checked by tests/stubs/test_type_checkers.py; never executed."""
from typing import Any

from typing_extensions import assert_type

from tvm.script import ir as I
from tvm.script import tir as T
from tvm.script.tir import Buffer, IterVar, Var
from tvm.script._types import BufferLoad, BufferRegion, IRModule, PrimExpr, PrimFunc
from tirkit.lang import tir as TK


def dtypes(n: T.int32, x: T.float32, flag: T.bool, h: T.handle) -> None:
    assert_type(T.int32(), Var)
    assert_type(T.float16(0), PrimExpr)
    assert_type(T.int64(n), PrimExpr)
    assert_type(T.float32("inf"), PrimExpr)
    assert_type(n, PrimExpr | int)
    assert_type(x, PrimExpr | float)
    assert_type(flag, PrimExpr | bool)
    assert_type(h, PrimExpr)
    assert_type(T.handle("float32", "shared"), Var)
    T.int32(is_size_var="yes")  # type: ignore[call-overload]


def buffers(a: T.handle, B: T.Buffer[(16,), "float32"]) -> None:  # type: ignore[name-defined]
    A = T.match_buffer(a, (16, 16), "float32")
    assert_type(A, Buffer)
    assert_type(B, Buffer)
    assert_type(A[0, 1], BufferLoad)
    assert_type(A[0, 0:4], BufferRegion)
    assert_type(A[0:4, 0:4], BufferRegion)
    assert_type(A.shape, tuple[PrimExpr, ...])
    A[0, 1] = A[1, 0] + T.float32(1)
    C = T.alloc_buffer((4,), "int32", scope="local")
    assert_type(C, Buffer)
    D = T.decl_buffer((4,), "int32", data=C.data)
    assert_type(D[0], BufferLoad)
    with T.decl_buffer((4,), "int32") as E:
        assert_type(E, Buffer)
    assert_type(T.Buffer((8,), "float32"), Buffer)
    T.Buffer((8,), "float32", scope=1)  # type: ignore[arg-type]


def loops() -> None:
    for i in T.serial(8):
        assert_type(i, Var)
    for i in T.grid(8):
        assert_type(i, Var)
    for i, j in T.grid(8, 8):
        assert_type((i, j), tuple[Var, Var])
    for i, j, k, l in T.grid(2, 2, 2, 2):
        assert_type(l, Var)
    for i, j in T.grid(2, 2, 2):  # type: ignore[misc]
        pass
    for t in T.thread_binding(32, thread="threadIdx.x"):
        assert_type(t, Var)
    n = T.int32()
    for r in range(n):
        assert_type(r, Var)
    for q in range(4):
        assert_type(q, int)


def blocks() -> None:
    for i, j, k in T.grid(4, 4, 4):
        with T.block("C"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            assert_type(vk, Var)
            assert_type(T.axis.remap("S", [i]), Var)
            assert_type(T.axis.spatial(4, i), Var)
            assert_type(T.axis.R((0, 4), k), Var)
            vi, vj = T.axis.remap("SSR", [i, j, k])  # type: ignore[misc]
            T.reads(vi, vj)
            with T.init():
                pass
    tx = T.env_thread("threadIdx.x")
    assert_type(tx, IterVar)
    with T.launch_thread(tx, 32) as v:
        assert_type(v, Var)


def intrinsics(x: T.float32) -> None:
    assert_type(T.exp(x), PrimExpr)
    assert_type(T.max(x, 1), PrimExpr)
    assert_type(T.if_then_else(x > 0, x, T.float32(0)), PrimExpr)
    assert_type(T.call_extern("float32", "expf", x), PrimExpr)
    assert_type(T.tvm_stack_alloca("arg_value", 4), PrimExpr)
    T.tvm_stack_alloca("arg_value")  # type: ignore[call-arg]
    assert_type(T.meta_var((8, 4)), tuple[int, int])
    assert_type(T.Cast("float32", x), T.Cast)
    T.evaluate(T.ret(x))
    assert_type(TK.exp(x), PrimExpr)


@T.prim_func
def kernel(A: T.Buffer((8,), "float32")) -> None:  # type: ignore[valid-type]
    for i in range(8):
        A[i] = T.float32(0)


@T.prim_func(private=True)
def private_kernel() -> None:
    T.evaluate(0)


@I.ir_module
class Module:
    @T.prim_func
    def main(a: T.handle) -> None:
        T.evaluate(a)


assert_type(kernel, PrimFunc)
# mypy does not apply class decorators' return types: `Module` stays a class for mypy
_m: IRModule = I.ir_module(Module)
assert_type(Module.main, PrimFunc)
_: Any = private_kernel
