"""A reference evaluator of integer TIR expressions with TVM semantics, for the arith tests.

floordiv/floormod round toward minus infinity; Div/Mod on integers truncate toward zero.
Booleans evaluate to 0/1. Python ints are unbounded (tests keep values small).
"""
from __future__ import annotations

from typing import Any, Callable

from tirkit.ir.expr import IntImm
from tirkit.tir import expr as E
from tirkit.tir.const_fold import trunc_div, trunc_mod

_BIN: dict[type, Callable[[int, int], int]] = {
    E.Add: lambda a, b: a + b,
    E.Sub: lambda a, b: a - b,
    E.Mul: lambda a, b: a * b,
    E.FloorDiv: lambda a, b: a // b,
    E.FloorMod: lambda a, b: a % b,
    E.Div: trunc_div,
    E.Mod: trunc_mod,
    E.Min: min,
    E.Max: max,
    E.EQ: lambda a, b: int(a == b),
    E.NE: lambda a, b: int(a != b),
    E.LT: lambda a, b: int(a < b),
    E.LE: lambda a, b: int(a <= b),
    E.GT: lambda a, b: int(a > b),
    E.GE: lambda a, b: int(a >= b),
    E.And: lambda a, b: int(bool(a) and bool(b)),
    E.Or: lambda a, b: int(bool(a) or bool(b)),
}


def evaluate(e: Any, env: dict[Any, int]) -> int:
    """Value of ``e`` with vars taken from ``env`` (keyed by the Var objects)."""
    if isinstance(e, IntImm):
        return e.value
    if isinstance(e, E.Var):
        return env[e]
    fn = _BIN.get(type(e))
    if fn is not None:
        return fn(evaluate(e.a, env), evaluate(e.b, env))
    if isinstance(e, E.Not):
        return int(not evaluate(e.a, env))
    if isinstance(e, E.Select):
        c = evaluate(e.condition, env)
        return evaluate(e.true_value if c else e.false_value, env)
    if isinstance(e, E.Cast):
        return evaluate(e.value, env)
    raise TypeError(f"evaluate: unsupported node {type(e).__name__}")
