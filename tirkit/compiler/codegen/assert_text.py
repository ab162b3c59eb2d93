"""The condition text of ``Assert fail: <cond>, <message>`` (what TVM's ``CodeGenCPU`` writes with
its C++ printer): a small direct renderer for the shapes argument checks take (vars, integer
constants, comparisons, ``and``/``or``/``not``, arithmetic, intrinsic calls), so that a function
with dozens of checks does not pay the full TVMScript printer's set-up for each. Anything else
is printed by :func:`tirkit.printer.script`.
"""
from __future__ import annotations

from typing import Any, Callable

from ...ir.dtype import DataType
from ...ir.expr import FloatImm, IntImm
from ...tir import expr as E

__all__ = ["condition_text", "condition_text_and_vars"]

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


def _int(e: IntImm, _need: int = 0, _ctx: Any = None) -> str:
    t = e.dtype
    if t is _INT32 or str(t) == "int32":
        return str(e.value)
    text = str(t)
    if text == "bool":
        return str(bool(e.value))
    return f"T.{text}({e.value})"


_INT32 = DataType.parse("int32")
#: ops the printer writes with its own sugar (``<<``, ``&``...): their own rules, not here
_SUGARED = frozenset(("tir.shift_left", "tir.shift_right", "tir.bitwise_and", "tir.bitwise_or",
                      "tir.bitwise_xor", "tir.bitwise_not"))


def _call(e: E.Call, _need: int, ctx: "_Uses | None") -> str:
    op = e.op
    name = getattr(op, "name", None)
    attrs = getattr(op, "attrs", None)
    if not isinstance(name, str) or not isinstance(attrs, dict) or name in _SUGARED:
        raise _Unknown  # the printer's sugar and GlobalVar calls: its own rules
    name = attrs.get("TScriptPrinterName")
    if not name:
        raise _Unknown
    args = [_render(a, 0, ctx) for a in e.args]
    loc = attrs.get("TScriptDtypePrintLocation")
    if loc == "first":
        args.insert(0, f'"{e.dtype}"')
    elif loc == "last":
        args.append(f'"{e.dtype}"')
    return f"T.{name}({', '.join(args)})"


def _render(e: Any, need: int, ctx: "_Uses | None" = None) -> str:
    """``e`` as text, parenthesized when its precedence is below ``need``; with ``ctx``, the
    variables met are noted there (and common-subexpression temporaries inlined)."""
    rule = _RULES.get(type(e))
    if rule is None:
        rule = _rule_of_base(type(e))
    return rule(e, need, ctx)


Render = Callable[[Any, int, "_Uses | None"], str]


def _var(e: Any, need: int, ctx: "_Uses | None") -> str:
    return str(e.name_hint) if ctx is None else ctx.var(e, need)


def _string(e: Any, _need: int, _ctx: "_Uses | None") -> str:
    return '"' + e.value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _cast(e: Any, _need: int, ctx: "_Uses | None") -> str:
    return f'T.Cast("{e.dtype}", {_render(e.value, 0, ctx)})'


def _buffer_load(e: Any, _need: int, ctx: "_Uses | None") -> str:
    if e.predicate is not None:
        raise _Unknown
    if ctx is not None:
        ctx.buffer(e.buffer)
    return f"{e.buffer.name}[{', '.join(_render(i, 0, ctx) for i in e.indices)}]"


def _not(e: Any, need: int, ctx: "_Uses | None") -> str:
    out = "not " + _render(e.a, 3, ctx)
    return f"({out})" if 3 < need else out


def _binary(e: Any, need: int, ctx: "_Uses | None") -> str:
    op, level = _BINARY[type(e)]
    left = level + 1 if level == 4 else level  # comparisons do not chain
    out = f"{_render(e.a, left, ctx)} {op} {_render(e.b, level + 1, ctx)}"
    return f"({out})" if level < need else out


def _unknown(_e: Any, _need: int, _ctx: "_Uses | None") -> str:
    raise _Unknown


#: node class -> its renderer; subclasses of the first six use their base's (binary operators
#: only their exact class: the printer has its own sugar for the others)
_RULES: dict[type, Render] = {
    E.Var: _var,
    IntImm: _int,
    E.StringImm: _string,
    E.Call: _call,
    E.Cast: _cast,
    E.BufferLoad: _buffer_load,
    E.Not: _not,
    **{cls: _binary for cls in _BINARY},
}
_BASES = (E.Var, IntImm, E.StringImm, E.Call, E.Cast, E.BufferLoad, E.Not)


def _rule_of_base(cls: type) -> Render:
    for base in cls.__mro__[1:]:
        if base in _BASES:
            rule = _RULES[cls] = _RULES[base]
            return rule
    return _unknown


class _Uses:
    """The free variables of a condition in first-use order (what ``undefined_vars`` gives for
    the shapes :func:`_render` handles), with the ``cse_var`` temporaries of ``lets`` replaced
    by their values, nested up to :data:`INLINE_DEPTH` levels."""

    def __init__(self, lets: dict[Any, Any] | None) -> None:
        self.lets = lets
        self.used: list[Any] = []
        self.seen: set[int] = set()
        self.depth = 0

    def use(self, var: Any) -> None:
        """Note a use of ``var``."""
        if id(var) not in self.seen:
            self.seen.add(id(var))
            self.used.append(var)

    def var(self, var: Any, need: int) -> str:
        """The text of ``var``: its value's when it is an inlined temporary."""
        lets = self.lets
        if lets and self.depth < INLINE_DEPTH and var.name_hint.startswith("cse_var"):
            value = lets.get(var)
            if value is not None:
                self.depth += 1
                try:
                    return _render(value, need, self)
                finally:
                    self.depth -= 1
        if id(var) not in self.seen:  # self.use(var), in line
            self.seen.add(id(var))
            self.used.append(var)
        return str(var.name_hint)

    def buffer(self, buf: Any) -> None:
        """An access to ``buf``: its data var is used (constant shapes and strides only)."""
        if not all(isinstance(x, IntImm) for x in (*buf.shape, *buf.strides)):
            raise _Unknown
        self.use(buf.data)


#: how deep temporaries inside temporaries are inlined (asserts._inline_temporaries' rounds)
INLINE_DEPTH = 16


def condition_text_and_vars(cond: Any, lets: dict[Any, Any] | None) -> tuple[str, list[Any]] | None:
    """``(text, free vars in first-use order)`` of an assert condition in one walk, the
    ``cse_var`` temporaries of ``lets`` (None: none) inlined; None for shapes the direct
    renderer does not handle (the caller then substitutes, prints and collects apart)."""
    if isinstance(cond, FloatImm):
        return None
    uses = _Uses(lets)
    try:
        return _render(cond, 0, uses), uses.used
    except _Unknown:
        return None


def condition_text(cond: Any) -> str:
    """The text of an assert condition (the TVMScript printer's for shapes not handled here)."""
    try:
        if isinstance(cond, FloatImm):
            raise _Unknown
        return _render(cond, 0)
    except _Unknown:
        from ...printer import script  # pylint: disable=import-outside-toplevel

        return script(cond)
