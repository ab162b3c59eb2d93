"""The condition text of ``Assert fail: <cond>, <message>`` (what TVM's ``CodeGenCPU`` writes with
its C++ printer): a small direct renderer for the shapes argument checks take (vars, integer
constants, comparisons, ``and``/``or``/``not``, arithmetic, intrinsic calls), so that a function
with dozens of checks does not pay the full TVMScript printer's set-up for each. Anything else
is printed by :func:`tirkit.printer.script`.
"""
from __future__ import annotations

from typing import Any, Callable

from ...ir.expr import FloatImm, IntImm
from ...tir import expr as E

__all__ = ["condition_text"]

_BINARY: dict[type, tuple[str, int]] = {
    E.Or: ("or", 1), E.And: ("and", 2),
    E.EQ: ("==", 4), E.NE: ("!=", 4), E.LT: ("<", 4), E.LE: ("<=", 4), E.GT: (">", 4),
    E.GE: (">=", 4),
    E.Add: ("+", 5), E.Sub: ("-", 5),
    E.Mul: ("*", 6), E.FloorDiv: ("//", 6), E.FloorMod: ("%", 6),
}
_ATOM = 9


class _Unknown(Exception):
    pass


def _int(e: IntImm) -> str:
    t = str(e.dtype)
    if t == "int32":
        return str(e.value)
    if t == "bool":
        return str(bool(e.value))
    return f"T.{t}({e.value})"


def _call(e: E.Call, text: Callable[[Any, int], str]) -> str:
    op = e.op
    name = getattr(op, "name", None)
    attrs = getattr(op, "attrs", None)
    if not isinstance(name, str) or not isinstance(attrs, dict) or \
            name in ("tir.shift_left", "tir.shift_right", "tir.bitwise_and", "tir.bitwise_or",
                     "tir.bitwise_xor", "tir.bitwise_not"):
        raise _Unknown  # the printer's sugar and GlobalVar calls: its own rules
    name = attrs.get("TScriptPrinterName")
    if not name:
        raise _Unknown
    args = [text(a, 0) for a in e.args]
    loc = attrs.get("TScriptDtypePrintLocation")
    if loc == "first":
        args.insert(0, f'"{e.dtype}"')
    elif loc == "last":
        args.append(f'"{e.dtype}"')
    return f"T.{name}({', '.join(args)})"


def _render(e: Any, need: int) -> str:
    """``e`` as text, parenthesized when its precedence is below ``need``."""
    if isinstance(e, E.Var):
        return e.name_hint
    if isinstance(e, IntImm):
        return _int(e)
    if isinstance(e, E.StringImm):
        return '"' + e.value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(e, E.Call):
        return _call(e, _render)
    if isinstance(e, E.Cast):
        return f'T.Cast("{e.dtype}", {_render(e.value, 0)})'
    if isinstance(e, E.BufferLoad) and e.predicate is None:
        return f"{e.buffer.name}[{', '.join(_render(i, 0) for i in e.indices)}]"
    if isinstance(e, E.Not):
        out, level = "not " + _render(e.a, 3), 3
    elif type(e) in _BINARY:
        op, level = _BINARY[type(e)]
        left = level + 1 if level == 4 else level  # comparisons do not chain
        out = f"{_render(e.a, left)} {op} {_render(e.b, level + 1)}"
    else:
        raise _Unknown
    return f"({out})" if level < need else out


def condition_text(cond: Any) -> str:
    """The text of an assert condition (the TVMScript printer's for shapes not handled here)."""
    try:
        if isinstance(cond, FloatImm):
            raise _Unknown
        return _render(cond, 0)
    except _Unknown:
        from ...printer import script  # pylint: disable=import-outside-toplevel

        return script(cond)
