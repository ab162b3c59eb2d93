"""``keys_equal`` decides exactly what comparing two ``expr_key`` values decides (the simplifier
relies on it to keep an unchanged expression's object), on random pairs of small expressions,
rebuilt copies and hand-picked edge cases."""
import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tirkit import tir
from tirkit.arith.keys import expr_key, keys_equal, shallow_key
from tirkit.ir.expr import FloatImm, IntImm
from tirkit.ir.node import Node
from tirkit.tir import expr as E

X, Y = tir.Var("x", "int32"), tir.Var("y", "int32")
SETTINGS = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}


@st.composite
def small_exprs(draw, depth=2):
    """Small int32 trees over two vars and three constants, so that distinct but equal trees
    are frequent."""
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        return draw(st.sampled_from([X, Y, IntImm("int32", 0), IntImm("int32", 1),
                                     IntImm("int32", 2)]))
    kind = draw(st.sampled_from(["add", "mul", "fdiv", "min", "select", "cast", "call"]))
    a, b = draw(small_exprs(depth - 1)), draw(small_exprs(depth - 1))
    if kind == "select":
        return E.Select(E.LT(a, b), a, b)
    if kind == "cast":
        return E.Cast("int32", E.Cast("int64", a))
    if kind == "call":
        return E.Call("int32", "tir.shift_left", [a, b])
    cls = {"add": E.Add, "mul": E.Mul, "fdiv": E.FloorDiv, "min": E.Min}[kind]
    return cls(a, b)


def _rebuilt(e):
    """A copy of ``e`` sharing only its vars and non-expression fields."""
    if not isinstance(e, Node) or isinstance(e, tir.Var):
        return e
    if isinstance(e, (IntImm, FloatImm)):
        return type(e)(e.dtype, e.value)
    changes = {}
    for name in ("a", "b", "value", "condition", "true_value", "false_value", "args"):
        v = getattr(e, name, None)
        if isinstance(v, (list, tuple)):
            changes[name] = [_rebuilt(x) for x in v]
        elif v is not None:
            changes[name] = _rebuilt(v)
    return e.with_changes(**changes)


@settings(max_examples=600, **SETTINGS)
@given(small_exprs(), small_exprs())
def test_keys_equal_matches_key_comparison(a, b):
    """Random pairs, and each against a rebuilt copy of itself."""
    assert keys_equal(a, b) == (expr_key(a) == expr_key(b))
    assert keys_equal(a, _rebuilt(a)) and keys_equal(_rebuilt(b), b)


def test_keys_equal_edge_cases():
    """Constants of other dtypes or classes, NaN, fresh vars, list vs tuple args, lanes."""
    i32, i64 = IntImm("int32", 1), IntImm("int64", 1)
    nan = FloatImm("float32", math.nan)
    cases = [
        (i32, IntImm("int32", 1)), (i32, i64), (i32, IntImm("bool", 1)),
        (i32, FloatImm("float32", 1.0)), (FloatImm("float32", 1.0), FloatImm("float64", 1.0)),
        (nan, FloatImm("float32", math.nan)), (nan, nan.with_changes()),
        (X, tir.Var("x", "int32")), (E.Add(X, i32), E.Add(X, IntImm("int32", 2))),
        (E.Add(X, Y), E.Sub(X, Y)), (E.Cast("int64", X), E.Cast("int32", X)),
        (E.Call("int32", "tir.shift_left", [X, Y]), E.Call("int32", "tir.shift_left", (X, Y))),
        (E.Call("int32", "tir.shift_left", [X, Y]), E.Call("int32", "tir.shift_right", [X, Y])),
        (E.Ramp(X, i32, 4), E.Ramp(X, IntImm("int32", 1), 4)),
        (E.Ramp(X, i32, 4), E.Ramp(X, i32, 8)),
    ]
    for a, b in cases:
        assert keys_equal(a, b) == (expr_key(a) == expr_key(b)), (a, b)
        assert keys_equal(b, a) == (expr_key(a) == expr_key(b)), (b, a)


def _interner():
    """Small ints from shallow keys, as CSE interns them."""
    table, ids, alive = {}, {}, []

    def key_id(e):
        got = ids.get(id(e))
        if got is None:
            got = ids[id(e)] = table.setdefault(shallow_key(e, key_id), len(table))
            alive.append(e)
        return got
    return key_id


@settings(max_examples=600, **SETTINGS)
@given(small_exprs(), small_exprs())
def test_shallow_key_ids_match_key_comparison(a, b):
    """Interned shallow keys are equal exactly when the deep keys are (CSE's _key relies on
    it), on random pairs and each against a rebuilt copy of itself."""
    key_id = _interner()
    assert (key_id(a) == key_id(b)) == (expr_key(a) == expr_key(b))
    assert key_id(a) == key_id(_rebuilt(a)) and key_id(_rebuilt(b)) == key_id(b)


def test_shallow_key_deep_chains():
    """Two long chains built apart get one id, a chain differing at its deepest leaf another
    (each node keyed once, from its children's ids)."""
    key_id = _interner()

    def chain(leaf):
        e = leaf
        for k in range(40):
            e = E.Add(E.Mul(e, IntImm("int32", k % 3)), X)
        return e
    a, b, c = chain(Y), chain(Y), chain(X)
    assert key_id(a) == key_id(b) and expr_key(a) == expr_key(b)
    assert key_id(a) != key_id(c) and expr_key(a) != expr_key(c)
