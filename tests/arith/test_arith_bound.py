"""ConstIntBound and ModularSet (tvm.arith.Analyzer.const_int_bound / modular_set)."""
from tirkit import tir
from tirkit.arith import Analyzer, ConstIntBound, ModularSet
from tirkit.ir.expr import IntImm, Range
from tirkit.tir import expr as E


def test_infinity_constants_match_tvm():
    assert ConstIntBound.POS_INF == 2**63 - 1
    assert ConstIntBound.NEG_INF == -(2**63 - 1)


def test_var_bounds():
    ana = Analyzer()
    x, y = tir.Var("x", "int32"), tir.Var("y", "int32")
    ana.bind(x, Range(0, 10))
    ana.bind(y, Range(0, 32))
    b = ana.const_int_bound(x * 2 - y)
    assert (b.min_value, b.max_value) == (-31, 18)
    b = ana.const_int_bound(tir.floordiv(y, 4))
    assert (b.min_value, b.max_value) == (0, 7)
    b = ana.const_int_bound(tir.floormod(x - 20, 8))
    assert (b.min_value, b.max_value) == (0, 7)
    b = ana.const_int_bound(tir.truncmod(x - 5, 3))
    assert (b.min_value, b.max_value) == (-2, 2)
    b = ana.const_int_bound(tir.min(x, y - 30))
    assert (b.min_value, b.max_value) == (-30, 1)


def test_unbounded_sides():
    ana = Analyzer()
    n = tir.SizeVar("n", "int64")
    b = ana.const_int_bound(n)
    assert (b.min_value, b.max_value) == (0, ConstIntBound.POS_INF)
    v = tir.Var("v", "int64")
    b = ana.const_int_bound(v)
    assert (b.min_value, b.max_value) == (ConstIntBound.NEG_INF, ConstIntBound.POS_INF)
    b = ana.const_int_bound(tir.Var("w", "int32"))
    assert (b.min_value, b.max_value) == (-(2**31), 2**31 - 1)


def test_update():
    ana = Analyzer()
    x = tir.Var("x", "int32")
    ana.update(x, ConstIntBound(1, 5))
    assert ana.can_prove(x > 0)
    ana.update(x, ConstIntBound(3, 100))
    assert (ana.const_int_bound(x).min_value, ana.const_int_bound(x).max_value) == (3, 5)


def test_bool_and_cast():
    ana = Analyzer()
    x = tir.Var("x", "int32")
    ana.bind(x, Range(-3, 3))
    b = ana.const_int_bound(x < 1)
    assert (b.min_value, b.max_value) == (0, 1)
    b = ana.const_int_bound(E.Cast("int64", x))
    assert (b.min_value, b.max_value) == (-3, 2)


def test_modular_set():
    ana = Analyzer()
    x, y = tir.Var("x", "int32"), tir.Var("y", "int32")
    m = ana.modular_set(x * 4 + 6)
    assert (m.coeff, m.base) == (4, 2)
    m = ana.modular_set(x * 6 + y * 9 + 1)
    assert (m.coeff, m.base) == (3, 1)
    m = ana.modular_set(tir.floordiv(x * 8 + 4, 4))
    assert (m.coeff, m.base) == (2, 1)
    m = ana.modular_set(tir.floormod(x * 6 + 2, 4))
    assert (m.coeff, m.base) == (2, 0)
    m = ana.modular_set(IntImm("int32", 7))
    assert (m.coeff, m.base) == (0, 7)
    assert isinstance(m, ModularSet)


def test_const_int_bound_without_simplify():
    """``simplify=False`` bounds the expression as written: never tighter than the default,
    which also bounds the simplified expression (``x - x`` is 0 once simplified)."""
    ana = Analyzer()
    x, y = tir.Var("x", "int32"), tir.Var("y", "int32")
    ana.bind(x, Range(0, 10))
    ana.bind(y, Range(0, 32))
    raw = ana.const_int_bound(x - x, simplify=False)
    assert (raw.min_value, raw.max_value) == (-9, 9)
    full = ana.const_int_bound(x - x)
    assert (full.min_value, full.max_value) == (0, 0)
    for e in (x * 2 - y, tir.floordiv(y, 4), x + y - x, tir.min(x, y - 30), x * 4 + y - x * 4):
        raw, full = ana.const_int_bound(e, simplify=False), ana.const_int_bound(e)
        assert raw.min_value <= full.min_value <= full.max_value <= raw.max_value
