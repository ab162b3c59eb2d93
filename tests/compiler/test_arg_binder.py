"""The shortcuts of arg_binder (issue 18, compile time) give exactly what they stand for:
``known_simplify`` what the simplifier (plus TVM's constant-to-the-right rewrite) makes of a
DLTensor field check, ``known_message`` what the printer prints for it."""
import pytest

from tirkit import tir
from tirkit.arith import Analyzer
from tirkit.compiler.passes import arg_binder
from tirkit.compiler.passes.arg_binder import known_message, known_simplify, struct_get
from tirkit.ir import assert_structural_equal
from tirkit.ir.expr import IntImm
from tirkit.printer import script
from tirkit.tir import EQ, BufferLoad, Var


def _slow(cond):
    # what _tvm_simplify computes when no shortcut applies
    saved = arg_binder.known_simplify
    arg_binder.known_simplify = lambda c: None
    try:
        return arg_binder._tvm_simplify(Analyzer(), cond)  # pylint: disable=protected-access
    finally:
        arg_binder.known_simplify = saved


def _shape_load(name="main.A.shape", k=0, dtype="int32"):
    buf = tir.decl_buffer((IntImm("int32", 4),), "int64", name=name)
    return tir.cast(dtype, BufferLoad(buf, (IntImm("int32", k),)))


def _conds():
    for dtype in ("int32", "int64"):
        for c in (0, 1, 7, 1024, 2**31 - 1, -5):
            for k in (0, 3):
                yield EQ(IntImm(dtype, c), _shape_load(k=k, dtype=dtype))
    handle = Var("A", "handle")
    for field in (4, 9, 10):
        for c in (0, 1, 2, -1):
            yield EQ(IntImm("int32", c), struct_get("int32", handle, 0, field))
        yield EQ(Var("dev_id", "int32"), struct_get("int32", handle, 0, field))
        yield EQ(Var("n", "int64"), struct_get("int64", handle, 0, field))
    for c in (0, 8, 2**40):
        yield EQ(IntImm("uint64", c), struct_get("uint64", handle, 0, 8))


@pytest.mark.parametrize("cond", list(_conds()), ids=script)
def test_known_simplify_is_the_simplifiers_result(cond):
    fast, slow = known_simplify(cond), _slow(cond)
    assert fast is not None
    assert_structural_equal(fast, slow)
    assert (fast is cond) == (slow is cond)
    assert fast.a is slow.a and fast.b is slow.b


def test_other_conditions_take_the_simplifier():
    x = Var("x", "int32")
    load = _shape_load()
    for cond in (EQ(x, load), EQ(load, IntImm("int32", 3)), EQ(x + 1, IntImm("int32", 3)),
                 EQ(IntImm("int32", 3), x), tir.logical_and(EQ(x, x), EQ(x, x))):
        assert known_simplify(cond) is None


@pytest.mark.parametrize("name", ["main.A.shape", "f.x_1.strides", "default_function.B.shape"])
@pytest.mark.parametrize("dtype", ["int32", "int64"])
@pytest.mark.parametrize("c", [0, 1024, -3])
def test_known_message_is_the_printers_text(name, dtype, c):
    cond = EQ(IntImm(dtype, c), _shape_load(name, 2, dtype))
    assert known_message(cond) == script(cond)


def test_known_message_leaves_other_names_to_the_printer():
    assert known_message(EQ(IntImm("int32", 1), _shape_load("a-b.shape"))) is None
    x = Var("x", "int32")
    assert known_message(EQ(x + 1, IntImm("int32", 3))) is None
    assert known_message(EQ(IntImm("int32", 3), x)) is None


@pytest.mark.parametrize("dtype", ["int32", "int64", "uint64", "uint8", "uint16", "handle"])
@pytest.mark.parametrize("name", ["A", "x_1", "weird.name", ""])
def test_known_message_of_struct_reads_is_the_printers_text(dtype, name):
    read = struct_get(dtype, Var(name, "handle"), 0, 10)
    conds = [EQ(Var("dev_id", dtype), read), EQ(Var(name, dtype), read)]
    if dtype != "handle":
        conds += [EQ(IntImm(dtype, c), read) for c in (0, 1, 255)]
        if not dtype.startswith("uint"):
            conds.append(EQ(IntImm(dtype, -2), read))
    for cond in conds:
        assert known_message(cond) == script(cond)
