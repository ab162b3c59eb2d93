"""Differential tests (issue 5): random small kernels — shapes, dtypes, loop kinds, index
expressions with floordiv/floormod, selects, min/max — compiled through the whole pipeline and
the JIT, and compared with the same computation in NumPy."""
from dataclasses import dataclass
from typing import Callable

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tirkit.compiler import build
from tirkit.lang import from_source


@dataclass
class Expr:
    """An expression as TVMScript text and as a NumPy function of the index grids."""

    text: str
    fn: Callable


def _index(draw, var: str, extent: int) -> Expr:
    """An index into [0, extent) built from a loop var: floormod/floordiv keep it in bounds."""
    kind = draw(st.sampled_from(["plain", "mod", "div", "rev"]))
    if kind == "mod":
        a, b = draw(st.integers(1, 5)), draw(st.integers(0, 9))
        return Expr(f"({var} * {a} + {b}) % {extent}", lambda g: (g * a + b) % extent)
    if kind == "div":
        d = draw(st.integers(1, 4))
        return Expr(f"{var} // {d}", lambda g: g // d)
    if kind == "rev":
        return Expr(f"{extent - 1} - {var}", lambda g: extent - 1 - g)
    return Expr(var, lambda g: g)


@st.composite
def expressions(draw, m: int, n: int, dtype: str, depth: int = 3) -> Expr:
    is_int = dtype.startswith("int")
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        if draw(st.booleans()):
            buf = draw(st.sampled_from(["A", "B"]))
            ii, jj = _index(draw, "i", m), _index(draw, "j", n)
            return Expr(f"{buf}[{ii.text}, {jj.text}]",
                        lambda env, b=buf, ii=ii, jj=jj: env[b][ii.fn(env["I"]), jj.fn(env["J"])])
        small = 2 if dtype == "int8" else 9  # signed overflow is undefined, as in TVM: avoid it
        c = draw(st.integers(-small, small))
        text = f"T.{dtype}({c})"
        return Expr(text, lambda env, c=c: np.asarray(c, dtype=dtype))
    a = draw(expressions(m, n, dtype, depth - 1))
    b = draw(expressions(m, n, dtype, depth - 1))
    ops = ["+", "-", "*", "max", "min", "select"] + (["//", "%"] if is_int else [])
    op = draw(st.sampled_from(ops))
    if op in ("+", "-", "*"):
        f = {"+": np.add, "-": np.subtract, "*": np.multiply}[op]
        return Expr(f"({a.text} {op} {b.text})", lambda env: f(a.fn(env), b.fn(env)))
    if op in ("max", "min"):
        f = np.maximum if op == "max" else np.minimum
        return Expr(f"T.{op}({a.text}, {b.text})", lambda env: f(a.fn(env), b.fn(env)))
    if op == "select":
        c = draw(expressions(m, n, dtype, 0))
        return Expr(f"T.Select({a.text} < {c.text}, {a.text}, {b.text})",
                    lambda env: np.where(a.fn(env) < c.fn(env), a.fn(env), b.fn(env)))
    d = draw(st.integers(1, 7 if dtype != "int8" else 3))  # floordiv/floormod by a constant
    f = np.floor_divide if op == "//" else np.mod
    name = "floordiv" if op == "//" else "floormod"
    spelled = f"T.{name}({a.text}, T.{dtype}({d}))"  # a bare 1 would be int32, as in TVM
    return Expr(spelled, lambda env: f(a.fn(env), np.asarray(d, dtype=dtype)))


@st.composite
def kernels(draw):
    dtype = draw(st.sampled_from(["int32", "float32", "int8", "float64"]))
    m, n = draw(st.integers(1, 9)), draw(st.sampled_from([1, 3, 4, 8, 16]))
    outer = draw(st.sampled_from(["T.serial", "T.parallel", "T.unroll"]))
    inner = draw(st.sampled_from(["T.serial", "T.vectorized", "T.unroll"]))
    expr = draw(expressions(m, n, dtype))
    text = f'''
@T.prim_func
def kernel(A: T.Buffer(({m}, {n}), "{dtype}"), B: T.Buffer(({m}, {n}), "{dtype}"),
           C: T.Buffer(({m}, {n}), "{dtype}")):
    for i in {outer}({m}):
        for j in {inner}({n}):
            C[i, j] = {expr.text}
'''
    return text, expr, dtype, (m, n)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(kernels(), st.integers(0, 2 ** 31 - 1))
def test_random_kernel_matches_numpy(case, seed):
    text, expr, dtype, shape = case
    rng = np.random.default_rng(seed)
    low, high = (-2, 3) if dtype == "int8" else (-100, 100)
    a = rng.integers(low, high, shape).astype(dtype)
    b = rng.integers(low, high, shape).astype(dtype)
    c = np.zeros(shape, dtype)
    build(from_source(text))(a, b, c)
    grid_i, grid_j = np.meshgrid(np.arange(shape[0]), np.arange(shape[1]), indexing="ij")
    with np.errstate(over="ignore"):
        expected = np.broadcast_to(expr.fn({"A": a, "B": b, "I": grid_i, "J": grid_j}), shape)
        expected = expected.astype(dtype)
    if dtype.startswith("float"):
        np.testing.assert_allclose(c, expected, rtol=1e-5, atol=1e-5, err_msg=text)
    else:
        np.testing.assert_array_equal(c, expected, err_msg=text)
