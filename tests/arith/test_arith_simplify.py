"""Unit tests of the rewrite/canonical simplifier rules (tvm.arith.Analyzer.simplify)."""
import pytest

from tirkit import tir
from tirkit.arith import Analyzer
from tirkit.ir.expr import IntImm, Range
from tirkit.ir.structural import structural_equal
from tirkit.tir import expr as E

fd, fm, td, tm = tir.floordiv, tir.floormod, tir.truncdiv, tir.truncmod


@pytest.fixture(name="env")
def _env():
    ana = Analyzer()
    i, j, x, y = (tir.Var(n, "int32") for n in "ijxy")
    ana.bind(i, Range(0, 4))
    ana.bind(j, Range(0, 32))
    return ana, i, j, x, y


def is_const(e, value, dtype="int32"):
    return isinstance(e, IntImm) and e.value == value and e.dtype == dtype


def test_fused_index_div_mod_give_the_vars(env):
    ana, i, j, _, _ = env
    assert ana.simplify(fd(i * 32 + j, 32)) is i
    assert ana.simplify(fm(i * 32 + j, 32)) is j
    assert ana.simplify(td(i * 32 + j, 32)) is i
    assert ana.simplify(tm(i * 32 + j, 32)) is j


def test_div_mod_needs_the_bound(env):
    ana, _, _, x, y = env  # x, y unbounded
    out = ana.simplify(fd(x * 32 + y, 32))
    assert isinstance(out, E.Add) and out.a is x and isinstance(out.b, E.FloorDiv)
    assert isinstance(ana.simplify(fm(x * 32 + y, 32)), E.FloorMod)


def test_int64_keeps_dtype():
    ana = Analyzer()
    i, j = tir.Var("i", "int64"), tir.Var("j", "int64")
    ana.bind(i, Range(IntImm("int64", 0), IntImm("int64", 4)))
    ana.bind(j, Range(IntImm("int64", 0), IntImm("int64", 32)))
    assert ana.simplify(fd(i * 32 + j, 32)) is i
    assert ana.simplify(fm(i * 32 + j, 32)) is j
    out = ana.simplify(i * 2 + j - i + 3)
    assert out.dtype == "int64"
    assert all(c.dtype == "int64" for c in (out.a.b, out.b))
    assert is_const(ana.simplify(i - i), 0, "int64")


def test_cancellation_and_like_terms(env):
    ana, _, _, x, y = env
    assert is_const(ana.simplify(x - x), 0)
    assert ana.simplify(x + y - x) is y
    out = ana.simplify(x * 2 + x * 3)
    assert isinstance(out, E.Mul) and out.a is x and is_const(out.b, 5)
    assert is_const(ana.simplify((x + 3) * 2 - x * 2), 6)
    assert structural_equal(ana.simplify(x * 2 + y * 3 - x), x + y * 3)


def test_floordiv_floormod_identities(env):
    ana, _, _, x, _ = env
    assert ana.simplify(fd(x * 8, 8)) is x
    assert is_const(ana.simplify(fm(x * 8, 8)), 0)
    assert structural_equal(ana.simplify(fd(fd(x, 2), 3)), fd(x, 6))
    assert structural_equal(ana.simplify(fm(fm(x, 16), 4)), fm(x, 4))
    assert structural_equal(ana.simplify(fd(fm(x, 16), 4)), fm(fd(x, 4), 4))
    assert ana.simplify(fd(x, 8) * 8 + fm(x, 8)) is x
    assert structural_equal(ana.simplify(fd(x * 4 + 2, 8)), fd(x * 2 + 1, 4))


def test_truncdiv_only_for_nonnegative(env):
    ana, i, _, x, _ = env
    # x may be negative: truncdiv(x*4 + 3, 4) is not x
    out = ana.simplify(td(x * 4 + 3, 4))
    assert isinstance(out, E.Div)
    assert isinstance(ana.simplify(tm(x * 4 + 3, 4)), E.Mod)
    # exact division is fine for any sign
    assert ana.simplify(td(x * 4, 4)) is x
    assert is_const(ana.simplify(tm(x * 4, 4)), 0)
    assert is_const(ana.simplify(td(i, 4)), 0)


def test_min_max_with_bounds(env):
    ana, i, _, x, _ = env
    assert ana.simplify(tir.min(x, x + 1)) is x
    assert ana.simplify(tir.max(x, x - 1)) is x
    assert ana.simplify(tir.max(i, 0)) is i
    assert is_const(ana.simplify(tir.min(i, -1)), -1)
    assert isinstance(ana.simplify(tir.max(x, 0)), E.Max)


def test_comparisons(env):
    ana, i, j, x, y = env
    assert is_const(ana.simplify(i < 32), 1, "bool")
    assert is_const(ana.simplify(i >= 4), 0, "bool")
    assert is_const(ana.simplify(x + 1 > x), 1, "bool")
    assert structural_equal(ana.simplify(x > y), y < x)
    assert structural_equal(ana.simplify(2 * x < 6), x < 3)
    assert structural_equal(ana.simplify(x + 1 < y + 1), x < y)
    assert structural_equal(ana.simplify(x + y > 5), IntImm("int32", 5) < x + y)
    assert is_const(ana.simplify(x * 2 == 3), 0, "bool")
    assert is_const(ana.simplify(j * 2 != 65), 1, "bool")


def test_logic(env):
    ana, i, _, x, y = env
    assert structural_equal(ana.simplify(tir.Not(x < y)), y <= x)
    assert is_const(ana.simplify(tir.all(x < y, y <= x)), 0, "bool")
    assert is_const(ana.simplify(tir.any(x < y, y <= x)), 1, "bool")
    # TVM's RewriteSimplifier simplifies the operands of && / || independently (assuming the
    # left one is its kApplyConstraintsToBooleanBranches extension): x < 5 && x < 7 stays
    assert structural_equal(ana.simplify(tir.all(x < 5, x < 7)), tir.all(x < 5, x < 7))
    # its rules on two conditions: contradictions, tautologies, == / != of constants
    assert is_const(ana.simplify(tir.all(x < 5, x > 6)), 0, "bool")
    assert is_const(ana.simplify(tir.all(x == 3, x == 4)), 0, "bool")
    assert is_const(ana.simplify(tir.all(x < 5, tir.Not(x < 5))), 0, "bool")
    assert is_const(ana.simplify(tir.any(x <= 3, x > 3)), 1, "bool")
    assert is_const(ana.simplify(tir.any(x != 3, x != 4)), 1, "bool")
    assert structural_equal(ana.simplify(tir.all(x != 4, x == 3)), x == 3)
    assert structural_equal(ana.simplify(tir.any(x != 3, x == 4)), x != 3)
    assert structural_equal(ana.simplify(tir.any(x < 3, x > 4)), tir.any(x < 3, E.LT(IntImm("int32", 4), x)))
    assert structural_equal(ana.simplify(tir.all(i < 2, x < 7)), tir.all(i < 2, x < 7))
    assert ana.simplify(E.Select(i < 4, x, y)) is x
    assert ana.simplify(E.Select(x < y, x, x)) is x


def test_non_integer_passes_through(env):
    ana, i, _, _, _ = env
    f = tir.Var("f", "float32")
    e = E.Add(f, E.Add(tir.FloatImm("float32", 1.0), tir.FloatImm("float32", 2.0)))
    out = ana.simplify(e)
    assert isinstance(out, E.Add) and out.a is f and out.b.value == 3.0
    buf = tir.decl_buffer((4, 32), "float32", name="A")
    load = E.BufferLoad(buf, (fd(i * 32 + 5, 32), i - i))
    out = ana.simplify(load)
    assert out.buffer is buf and out.indices[0] is i and is_const(out.indices[1], 0)


def test_size_var_is_nonnegative():
    ana = Analyzer()
    n = tir.SizeVar("n", "int32")
    assert ana.can_prove(n >= 0)
    assert ana.simplify(tir.max(n, 0)) is n
    assert is_const(ana.simplify(fd(n, n + 1)), 0)


def test_bind_value_substitutes():
    ana = Analyzer()
    x, y = tir.Var("x", "int32"), tir.Var("y", "int32")
    ana.bind(x, y + 1)
    assert is_const(ana.simplify(x - y), 1)
    ana.bind(y, Range(5, 6))  # extent 1: y is 5
    assert is_const(ana.simplify(y * 2), 10)


def test_constraint_scope():
    ana = Analyzer()
    i = tir.Var("i", "int32")
    with ana.constraint_scope(tir.all(i >= 0, i < 10)):
        assert ana.can_prove(i < 10)
        assert ana.can_prove(i < 11)
        assert ana.simplify(fm(i, 10)) is i
        assert ana.const_int_bound(i).max_value == 9
    assert not ana.can_prove(i < 10)
    assert isinstance(ana.simplify(fm(i, 10)), E.FloorMod)


def test_nested_constraint_scopes_undo_their_own_facts():
    ana = Analyzer()
    i = tir.Var("i", "int32")
    with ana.constraint_scope(i < 10):
        with ana.constraint_scope(i < 5):  # the same bound (i's) narrowed, then restored
            assert ana.can_prove(i < 5)
        assert ana.can_prove(i < 10) and not ana.can_prove(i < 5)
        with ana.constraint_scope(i >= 3):
            assert ana.const_int_bound(i).min_value == 3
            assert ana.const_int_bound(i).max_value == 9
        assert ana.can_prove(i < 10) and not ana.can_prove(i >= 3)
    assert not ana.can_prove(i < 10)


def test_selects_nested_2000_deep_copy_nothing_per_scope(monkeypatch):
    """Each constraint scope copied every fact and bound known on entry (and the memo stack)
    and held the copies until it left: Selects (or ifs) nested n deep took n**2 time and
    memory (2,000 deep: 172 MB at the peak; 16,000 deep: 47 s). A scope now undoes what it
    added. Counted: the entries the simplifier's module copies with dict() / list(), at most
    10 per level (before: 8 million). Each condition narrows the one outside it (x < 100 + k
    inside x < 101 + k), so every level opens a scope; the leaf is simplified under x < 100
    and each false branch under its negation (100 + k <= x makes x < 100 false there)."""
    from tirkit.arith import simplify as S  # pylint: disable=import-outside-toplevel

    copied = [0]

    def counting(kind):
        def make(*args):
            copied[0] += len(args[0]) if args and hasattr(args[0], "__len__") else 0
            return kind(*args)
        return make

    monkeypatch.setattr(S, "dict", counting(dict), raising=False)
    monkeypatch.setattr(S, "list", counting(list), raising=False)
    n = 2000
    x, y = tir.Var("x", "int32"), tir.Var("y", "int32")
    below = E.LT(x, IntImm("int32", 100))
    e = E.Select(below, y, x)
    for k in range(n):
        e = E.Select(E.LT(x, IntImm("int32", 100 + k)), e, E.Select(below, x, y))
    assert Analyzer().simplify(e) is y  # (TVM's select(c, y, y) -> y at every level)
    assert copied[0] <= 10 * n


def test_proof_helpers(env):
    ana, i, j, x, _ = env
    assert ana.can_prove_equal(x * 2 + 1, 1 + x + x)
    assert not ana.can_prove_equal(x, x + 1)
    assert ana.can_prove_greater_equal(i + j, 0)
    assert not ana.can_prove_greater_equal(i - 1, 0)
    assert ana.can_prove_less(i * 32 + j, 128)
    assert not ana.can_prove_less(i * 32 + j, 127)


def test_division_by_constant_zero_raises(env):
    ana, _, _, x, _ = env
    with pytest.raises(ZeroDivisionError):
        ana.simplify(E.FloorDiv(x, IntImm("int32", 0)))


def condition_chain(n, join=tir.And):
    """``T.Select(a[0] < 100 and a[1] < 100 and ... and a[n-1] < 100, 1.0, 2.0)``: an n-term
    chain of float comparisons, left-deep as the parser builds ``and`` (``join``: And or Or)."""
    a = tir.decl_buffer((n,), "float32", "a")
    conds = [E.LT(E.BufferLoad(a, [IntImm("int32", k)]), E.FloatImm("float32", 100.0))
             for k in range(n)]
    chain = conds[0]
    for c in conds[1:]:
        chain = join(chain, c)
    return E.Select(chain, E.FloatImm("float32", 1.0), E.FloatImm("float32", 2.0))


@pytest.mark.parametrize("n", [30, 200])
@pytest.mark.parametrize("join", [tir.And, tir.Or])
def test_a_long_condition_chain_costs_linear_work(monkeypatch, join, n):
    """A Select over a chain of n float comparisons (`a[0] < 100 and a[1] < 100 and ...`).
    Each level of the chain simplified its operand again after the inner levels' constraint
    scopes (a memo emptied on leaving each): 2**n simplifications (6ef2c0c). Then each level
    of an `and` still entered a constraint scope of the whole chain before it (an `or` level
    simplified that chain's negation, a new expression): n**3 (200 terms: 98 s in tirc). TVM
    simplifies the operands of && / || independently: about 8 simplify calls per term here,
    capped at 20 (before: 18,251 calls for 25 terms, 914,251 for 100)."""
    from tirkit.arith import simplify as S  # pylint: disable=import-outside-toplevel

    calls = [0]
    inner = S.Simplifier.simplify
    cap = 20 * n

    def counted(self, e):
        calls[0] += 1
        if calls[0] > cap:
            raise AssertionError(f"more than {cap} simplify calls for a {n}-term chain")
        return inner(self, e)

    monkeypatch.setattr(S.Simplifier, "simplify", counted)
    sel = condition_chain(n, join)
    out = Analyzer().simplify(sel)
    assert structural_equal(out, sel)  # nothing to simplify: the same expression back
