"""DeferredBinds (the analyzer of LowerIntrin, CompactBufferAllocation, LowerMatchBuffer): its
binds are made at the first query, and every answer is the eager analyzer's."""
import pytest

from tirkit.arith import Analyzer
from tirkit.compiler.passes._opt_common import DeferredBinds
from tirkit.ir import Range
from tirkit.tir import FloorDiv, FloorMod, Var


def _bind_all(ana):
    i, j, k = Var("i", "int32"), Var("j", "int32"), Var("k", "int32")
    ana.bind(i, Range.from_min_extent(0, 16))
    ana.bind(j, i * 4 + 3)  # a value: substituted, its bound derived from i's
    ana.bind(k, Range.from_min_extent(j, 8))  # a range whose min uses the earlier binds
    return i, j, k


def test_answers_match_an_eager_analyzer():
    eager, lazy = Analyzer(), DeferredBinds()
    (i, j, k), (i2, j2, k2) = _bind_all(eager), _bind_all(lazy)
    for make in (lambda i, j, k: k + 1, lambda i, j, k: FloorDiv(j, 4),
                 lambda i, j, k: FloorMod(k - j, 8)):
        e, l = eager.const_int_bound(make(i, j, k)), lazy.const_int_bound(make(i2, j2, k2))
        assert (l.min_value, l.max_value) == (e.min_value, e.max_value)
    assert str(lazy.simplify(FloorDiv(j2, 4))) == str(eager.simplify(FloorDiv(j, 4))) == "i"
    assert lazy.can_prove(k2 < 71) and not lazy.can_prove(k2 < 70)


def test_binds_wait_for_the_first_query_and_keep_their_order():
    lazy = DeferredBinds()
    i, _, k = _bind_all(lazy)
    assert len(lazy._pending) == 3  # pylint: disable=protected-access
    assert lazy.const_int_bound(k).max_value == 70  # 15 * 4 + 3 + 7
    assert not lazy._pending  # pylint: disable=protected-access
    lazy.bind(i, Range.from_min_extent(0, 2))  # a later bind replaces the earlier one
    assert lazy.const_int_bound(i).max_value == 1


def test_a_bind_of_a_non_var_raises_at_once():
    with pytest.raises(TypeError, match="expected a Var"):
        DeferredBinds().bind(3, 4)
