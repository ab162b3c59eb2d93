"""The simplifier keeps, from one Analyzer.simplify to the next, the nodes it found already
simplified while what the analyzer knows is unchanged (tirkit.arith.simplify.Simplifier.run).
Every change of that knowledge (bind, update, a constraint scope) must make it simplify again:
the answers are those of a fresh analyzer given the same facts."""
from tirkit import tir
from tirkit.arith import Analyzer, ConstIntBound
from tirkit.ir.expr import IntImm, Range
from tirkit.ir.structural import structural_equal

fd = tir.floordiv


def _vars():
    return tir.Var("x", "int32"), tir.Var("y", "int32")


def test_a_node_left_as_it_was_is_simplified_again_after_a_bind():
    ana = Analyzer()
    x, _ = _vars()
    e = fd(x, 64)
    assert ana.simplify(e) is e  # x unknown: nothing to do
    ana.bind(x, Range(0, 64))
    out = ana.simplify(e)
    assert isinstance(out, IntImm) and out.value == 0


def test_a_node_left_as_it_was_is_simplified_again_after_an_update():
    ana = Analyzer()
    x, y = _vars()
    e = fd(x, 64) + y
    assert ana.simplify(e) is e
    ana.update(x, ConstIntBound(0, 63))
    assert ana.simplify(e) is y


def test_a_constraint_scope_and_its_end_are_changes():
    ana = Analyzer()
    x, _ = _vars()
    e = fd(x, 64)
    cond = tir.all(x >= 0, x < 64)
    assert ana.simplify(e) is e
    with ana.constraint_scope(cond):
        out = ana.simplify(e)
        assert isinstance(out, IntImm) and out.value == 0
    assert ana.simplify(e) is e  # the facts are gone with the scope


def test_a_condition_simplified_before_an_update_is_simplified_again_at_a_scope():
    """A constraint scope simplifies its condition outside any simplify run: what an earlier
    run found must not answer for it once an update changed the bounds."""
    ana = Analyzer()
    x, _ = _vars()
    cond = x < 64
    assert ana.simplify(cond) is cond
    ana.update(x, ConstIntBound(0, 10))
    with ana.constraint_scope(cond):
        pass  # (the condition is true: no fact to add)
    fresh = Analyzer()
    fresh.update(x, ConstIntBound(0, 10))
    assert structural_equal(ana.simplify(cond), fresh.simplify(cond))


def test_the_same_node_twice_under_one_state_gives_one_answer():
    ana = Analyzer()
    x, y = _vars()
    ana.bind(x, Range(0, 4))
    e = fd(x * 16 + y, 16)
    first, second = ana.simplify(e), ana.simplify(e)
    assert structural_equal(first, second)
    fresh = Analyzer()
    fresh.bind(x, Range(0, 4))
    assert structural_equal(second, fresh.simplify(e))
