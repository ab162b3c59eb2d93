"""Property tests of the analyzer on random integer expression trees (hypothesis).

Simplification must preserve values under TVM's division semantics (floordiv/floormod toward
minus infinity, Div/Mod toward zero), keep the dtype, and be idempotent; bounds must hold every
value; detected iterator maps must evaluate like their indices.
"""
import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tirkit import tir
from tirkit.arith import Analyzer, detect_iter_map, normalize_iter_map_to_expr
from tirkit.ir.expr import IntImm, Range
from tirkit.ir.structural import structural_equal
from tirkit.tir import expr as E

from evaluator import evaluate

DTYPES = ("int32", "int64")
RANGES = {"x": (-8, 8), "y": (0, 16), "z": (1, 6)}  # [lo, hi)
VARS = {dt: {n: tir.Var(n, dt) for n in RANGES} for dt in DTYPES}
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])

_DIVS = (E.FloorDiv, E.FloorMod, E.Div, E.Mod)
_CMPS = (E.LT, E.LE, E.GT, E.GE, E.EQ, E.NE)


def _analyzer(dtype):
    ana = Analyzer()
    for name, (lo, hi) in RANGES.items():
        ana.bind(VARS[dtype][name], Range(IntImm(dtype, lo), IntImm(dtype, hi)))
    return ana


@st.composite
def int_exprs(draw, dtype, depth=4):
    """A random integer expression tree over x, y, z."""
    c = lambda v: IntImm(dtype, v)  # noqa: E731
    vs = VARS[dtype]
    if depth == 0 or draw(st.integers(0, 4)) == 0:
        if draw(st.integers(0, 9)) < 7:
            return vs[draw(st.sampled_from(sorted(vs)))]
        return c(draw(st.integers(-10, 10)))
    sub = lambda: draw(int_exprs(dtype, depth - 1))  # noqa: E731
    kind = draw(st.sampled_from(["add", "sub", "mulc", "mulv", "divc", "divz", "min", "max",
                                 "select", "affine", "affine"]))
    if kind == "affine":  # index-like: v * c + e
        v = vs[draw(st.sampled_from(sorted(vs)))]
        return E.Add(E.Mul(v, c(draw(st.sampled_from([2, 3, 4, 8, 16])))), sub())
    if kind in ("add", "sub", "min", "max"):
        cls = {"add": E.Add, "sub": E.Sub, "min": E.Min, "max": E.Max}[kind]
        return cls(sub(), sub())
    if kind == "mulc":
        return E.Mul(sub(), c(draw(st.integers(-4, 4))))
    if kind == "mulv":
        return E.Mul(vs[draw(st.sampled_from(sorted(vs)))], sub())
    if kind == "divc":
        d = draw(st.integers(-5, 5).filter(bool))
        return draw(st.sampled_from(_DIVS))(sub(), c(d))
    if kind == "divz":
        return draw(st.sampled_from(_DIVS))(sub(), vs["z"] if draw(st.booleans())
                                            else E.Add(vs["z"], c(draw(st.integers(0, 3)))))
    cond = draw(st.sampled_from(_CMPS))(sub(), sub())
    return E.Select(cond, sub(), sub())


@st.composite
def bool_exprs(draw, dtype, depth=3):
    """A random boolean expression of comparisons of integer expressions."""
    if depth == 0 or draw(st.integers(0, 2)) == 0:
        return draw(st.sampled_from(_CMPS))(draw(int_exprs(dtype, 2)), draw(int_exprs(dtype, 2)))
    kind = draw(st.sampled_from(["and", "or", "not"]))
    if kind == "not":
        return E.Not(draw(bool_exprs(dtype, depth - 1)))
    cls = E.And if kind == "and" else E.Or
    return cls(draw(bool_exprs(dtype, depth - 1)), draw(bool_exprs(dtype, depth - 1)))


envs = st.fixed_dictionaries({n: st.integers(lo, hi - 1) for n, (lo, hi) in RANGES.items()})


def _env(dtype, values):
    return {VARS[dtype][n]: v for n, v in values.items()}


def _all_envs(dtype):
    names = sorted(RANGES)
    for point in itertools.product(*(range(*RANGES[n]) for n in names)):
        yield {VARS[dtype][n]: v for n, v in zip(names, point)}


@st.composite
def typed(draw, maker):
    dtype = draw(st.sampled_from(DTYPES))
    return dtype, draw(maker(dtype))


@settings(max_examples=1500, **SETTINGS)
@given(typed(int_exprs), st.lists(envs, min_size=4, max_size=4))
def test_simplify_preserves_value_and_dtype(case, values):
    dtype, e = case
    out = _analyzer(dtype).simplify(e)
    assert out.dtype == e.dtype
    for v in values:
        env = _env(dtype, v)
        assert evaluate(out, env) == evaluate(e, env), (e, out, v)


@settings(max_examples=800, **SETTINGS)
@given(typed(int_exprs))
def test_simplify_is_idempotent(case):
    dtype, e = case
    ana = _analyzer(dtype)
    once = ana.simplify(e)
    twice = ana.simplify(once)
    assert structural_equal(twice, once), (e, once, twice)


@settings(max_examples=700, **SETTINGS)
@given(typed(bool_exprs), st.lists(envs, min_size=4, max_size=4))
def test_simplify_bool_preserves_truth(case, values):
    dtype, e = case
    ana = _analyzer(dtype)
    out = ana.simplify(e)
    assert out.dtype == "bool"
    assert structural_equal(ana.simplify(out), out), (e, out)
    for v in values:
        env = _env(dtype, v)
        assert bool(evaluate(out, env)) == bool(evaluate(e, env)), (e, out, v)


@settings(max_examples=300, **SETTINGS)
@given(typed(int_exprs))
def test_const_int_bound_holds_every_value(case):
    dtype, e = case
    ana = _analyzer(dtype)
    b = ana.const_int_bound(e)
    values = [evaluate(e, env) for env in _all_envs(dtype)]
    assert b.min_value <= min(values) and max(values) <= b.max_value, (e, b)


@settings(max_examples=300, **SETTINGS)
@given(typed(int_exprs), st.integers(-6, 14), st.lists(envs, min_size=6, max_size=6))
def test_constraint_scope_is_sound(case, limit, values):
    dtype, e = case
    ana = _analyzer(dtype)
    x, y = VARS[dtype]["x"], VARS[dtype]["y"]
    with ana.constraint_scope(E.LT(E.Add(x, y), IntImm(dtype, limit))):
        out = ana.simplify(e)
    for v in values:
        if v["x"] + v["y"] < limit:
            env = _env(dtype, v)
            assert evaluate(out, env) == evaluate(e, env), (e, out, v, limit)


@settings(max_examples=300, **SETTINGS)
@given(typed(bool_exprs))
def test_can_prove_is_sound(case):
    dtype, e = case
    if _analyzer(dtype).can_prove(e):
        assert all(evaluate(e, env) for env in _all_envs(dtype)), e


@st.composite
def iter_maps(draw):
    """Iterators with extents, then random fuse/split steps: a bijective index map."""
    n = draw(st.integers(1, 3))
    vs = [tir.Var(f"v{k}", "int32") for k in range(n)]
    exts = [draw(st.sampled_from([2, 3, 4, 6, 8])) for _ in range(n)]
    items = list(zip(vs, exts))
    for _ in range(draw(st.integers(0, 4))):
        if len(items) >= 2 and draw(st.booleans()):
            k = draw(st.integers(0, len(items) - 2))
            (a, ea), (b, eb) = items[k], items[k + 1]
            items[k:k + 2] = [(a * eb + b, ea * eb)]
        else:
            k = draw(st.integers(0, len(items) - 1))
            a, ea = items[k]
            factors = [f for f in range(2, ea) if ea % f == 0]
            if not factors:
                continue
            f = draw(st.sampled_from(factors))
            items[k:k + 1] = [(tir.floordiv(a, f), ea // f), (tir.floormod(a, f), f)]
    offset = draw(st.integers(-3, 3))
    return dict(zip(vs, exts)), [e + offset if k == 0 else e for k, (e, _) in enumerate(items)]


@settings(max_examples=400, **SETTINGS)
@given(iter_maps())
def test_detect_iter_map_round_trip(case):
    extents, indices = case
    dom = {v: Range(0, e) for v, e in extents.items()}
    res = detect_iter_map(indices, dom, check_level="bijective")
    assert res.errors == (), (indices, res.errors)
    exprs = [normalize_iter_map_to_expr(s) for s in res.indices]
    for point in itertools.product(*(range(e) for e in extents.values())):
        env = dict(zip(extents, point))
        assert [evaluate(x, env) for x in exprs] == [evaluate(x, env) for x in indices]
