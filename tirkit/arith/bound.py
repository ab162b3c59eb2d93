"""Constant integer bounds of expressions (mirrors ``tvm.arith.ConstIntBound`` and TVM's
``ConstIntBoundAnalyzer`` in ``src/arith/const_int_bound.cc``).

Internally a bound is a ``(lo, hi)`` pair of Python ints where an unbounded side is ``-inf`` /
``inf`` (floats); :class:`ConstIntBound` presents it with TVM's ``NEG_INF``/``POS_INF`` sentinels.
Integer overflow is ignored, as in TVM.
"""
from __future__ import annotations

import math
from typing import Any, Callable, ClassVar

from ..ir.dtype import DataType
from ..ir.expr import FloatImm, IntImm, PrimExpr
from ..ir.node import Node, node
from ..tir import expr as E
from ..tir.const_fold import trunc_div
from .keys import expr_key, key_tag
from ..ir.dispatch import DispatchTable

INF = math.inf
Interval = tuple[Any, Any]


@node
class ConstIntBound(Node):
    """A closed integer interval ``[min_value, max_value]`` (mirrors ``tvm.arith.ConstIntBound``).

    Unbounded sides are ``ConstIntBound.NEG_INF`` / ``ConstIntBound.POS_INF`` (``-(2**63-1)`` and
    ``2**63-1``, TVM's ``kNegInf`` / ``kPosInf``).
    """

    min_value: int
    max_value: int

    POS_INF: ClassVar[int] = 2**63 - 1
    NEG_INF: ClassVar[int] = -(2**63 - 1)

    @staticmethod
    def from_interval(iv: Interval) -> "ConstIntBound":
        """Public form of an internal ``(lo, hi)`` pair (infinities become the sentinels)."""
        lo, hi = iv
        lo = ConstIntBound.NEG_INF if lo <= ConstIntBound.NEG_INF else int(lo)
        hi = ConstIntBound.POS_INF if hi >= ConstIntBound.POS_INF else int(hi)
        return ConstIntBound(lo, hi)

    def to_interval(self) -> Interval:
        """Internal ``(lo, hi)`` pair (sentinels become infinities)."""
        lo = -INF if self.min_value <= ConstIntBound.NEG_INF else self.min_value
        hi = INF if self.max_value >= ConstIntBound.POS_INF else self.max_value
        return (lo, hi)

    def __repr__(self) -> str:
        return f"ConstIntBound(min_value={self.min_value}, max_value={self.max_value})"


def dtype_interval(t: DataType) -> Interval:
    """Every value of dtype ``t`` (TVM's ``Everything(dtype)``); 64-bit and floats are unbounded."""
    if t.is_bool():
        return (0, 1)
    if t.is_int() and t.bits < 64:
        return (-(1 << (t.bits - 1)), (1 << (t.bits - 1)) - 1)
    if t.is_uint():
        return (0, (1 << t.bits) - 1 if t.bits < 64 else INF)
    return (-INF, INF)


def intersect(a: Interval, b: Interval) -> Interval:
    """Intersection of two intervals (may be empty: ``lo > hi``) (mirrors TVM's ``ConstIntBound``
    ``Intersect``)."""
    return (max(a[0], b[0]), min(a[1], b[1]))


def union(a: Interval, b: Interval) -> Interval:
    """Smallest interval holding both (mirrors TVM's ``ConstIntBound`` ``Union``)."""
    return (min(a[0], b[0]), max(a[1], b[1]))


def iv_add(a: Interval, b: Interval) -> Interval:
    """Bound of ``x + y`` (mirrors TVM's ``InfAwareAdd``)."""
    return (a[0] + b[0], a[1] + b[1])


def _m(x: Any, y: Any) -> Any:
    return 0 if x == 0 or y == 0 else x * y


def iv_mul(a: Interval, b: Interval) -> Interval:
    """Bound of ``x * y`` (``0 * inf`` is 0) (mirrors TVM's ``InfAwareMul``)."""
    c = [_m(x, y) for x in a for y in b]
    return (min(c), max(c))


def iv_scale(a: Interval, c: int) -> Interval:
    """Bound of ``x * c`` for a constant ``c`` (mirrors TVM's ``InfAwareMul`` by a constant)."""
    return iv_mul(a, (c, c))


def _sign(x: Any) -> int:
    return (x > 0) - (x < 0)


def _div_candidates(a: Any, b: Any, floor: bool) -> list[Any]:
    if not math.isinf(a) and not math.isinf(b):
        return [a // b if floor else trunc_div(a, b)]
    if math.isinf(a) and not math.isinf(b):
        return [_sign(a) * _sign(b) * INF]
    if not math.isinf(a):  # finite / inf
        return [-1 if floor and _sign(a) * _sign(b) < 0 else 0]
    return [0, -1, _sign(a) * _sign(b) * INF]


def _div_same_sign(a: Interval, b: Interval, floor: bool) -> Interval:
    c = [v for x in a for y in b for v in _div_candidates(x, y, floor)]
    return (min(c), max(c))


def _split_nonzero(b: Interval) -> list[Interval]:
    parts = []
    if b[0] <= -1:
        parts.append((b[0], min(b[1], -1)))
    if b[1] >= 1:
        parts.append((max(b[0], 1), b[1]))
    return parts


def iv_div(a: Interval, b: Interval, floor: bool) -> Interval:
    """Bound of ``floordiv`` (``floor=True``) or ``truncdiv`` of ``x`` by ``y`` (``y != 0``)
    (mirrors TVM's ``HandleDivision``)."""
    parts = _split_nonzero(b)
    if not parts:
        return (-INF, INF)
    out = _div_same_sign(a, parts[0], floor)
    for p in parts[1:]:
        out = union(out, _div_same_sign(a, p, floor))
    return out


def iv_floormod(a: Interval, b: Interval) -> Interval:
    """Bound of ``floormod(x, y)`` (mirrors TVM's ``FloorMod`` bound rule)."""
    if b[0] == b[1] and b[0] > 0 and not math.isinf(a[0]) and not math.isinf(a[1]) \
            and a[0] // b[0] == a[1] // b[0]:
        return (a[0] % b[0], a[1] % b[0])
    lo, hi = INF, -INF
    if b[1] >= 1:
        top = b[1] - 1
        lo, hi = 0, (min(a[1], top) if a[0] >= 0 else top)
    if b[0] <= -1:
        lo, hi = min(lo, b[0] + 1), max(hi, 0)
    return (lo, hi) if lo <= hi else (-INF, INF)


def iv_truncmod(a: Interval, b: Interval) -> Interval:
    """Bound of ``truncmod(x, y)`` (sign of ``x``) (mirrors TVM's ``Mod`` bound rule)."""
    m = max(abs(b[0]), abs(b[1])) - 1
    if m < 0:
        return (-INF, INF)
    if a[0] >= 0:
        return (0, min(a[1], m))
    if a[1] <= 0:
        return (max(a[0], -m), 0)
    return (max(a[0], -m), min(a[1], m))


# ------------------------------------------------------------------------------- the analyzer
_Handler = Callable[["ConstIntBoundAnalyzer", Any], Interval]
_TABLE = DispatchTable()
#: register a bound handler for expression node classes (TVM's ``ExprFunctor`` dispatch)
register = _TABLE.register


def _lookup(cls: type) -> _Handler | None:
    for k in cls.__mro__:
        fn = _TABLE.get(k)
        if fn is not None:
            return fn
    return None


class ConstIntBoundAnalyzer:
    """Bound analysis over expressions (TVM's ``arith::ConstIntBoundAnalyzer``).

    ``known`` maps an expression key (:func:`expr_key`) to an interval known for that expression:
    variable ranges from ``Analyzer.bind`` and facts from constraint scopes.
    """

    def __init__(self) -> None:
        self.known: dict[Any, Interval] = {}
        # the key tags (keys.key_tag) ever entered into ``known`` (None: some key without one),
        # and a key cache: ``bound`` asks for the key of every sub-expression it meets, and
        # each key is a walk of its whole sub-tree (nodes are immutable, keys never go stale)
        self._tags: set[Any] | None = set()
        self._keys: dict[int, tuple[Any, Any]] = {}

    def bound(self, e: PrimExpr) -> Interval:
        """The ``(lo, hi)`` interval of ``e``."""
        base = _lookup(type(e))
        iv = base(self, e) if base is not None else dtype_interval(e.dtype)
        if self.known and (self._tags is None or key_tag(e) in self._tags):
            if len(self._keys) > 100_000:
                self._keys.clear()
            extra = self.known.get(expr_key(e, self._keys))
            if extra is not None:
                iv = intersect(iv, extra)
        return iv

    def note_key(self, key: Any) -> None:
        """Record that ``key`` may be entered into ``known`` (``update`` does it itself)."""
        if self._tags is not None:
            if isinstance(key, tuple) and key:
                self._tags.add(key[0])
            else:
                self._tags = None

    def update(self, key: Any, iv: Interval) -> None:
        """Intersect the known interval of the expression with key ``key`` with ``iv``."""
        self.note_key(key)
        old = self.known.get(key)
        self.known[key] = iv if old is None else intersect(old, iv)


@register(IntImm)
def _imm(_: ConstIntBoundAnalyzer, e: IntImm) -> Interval:
    return (e.value, e.value)


@register(FloatImm)
def _fimm(_: ConstIntBoundAnalyzer, e: FloatImm) -> Interval:
    if math.isfinite(e.value) and e.value == int(e.value):
        return (int(e.value), int(e.value))
    return (-INF, INF)


@register(E.Var)
def _var(_: ConstIntBoundAnalyzer, e: E.Var) -> Interval:
    iv = dtype_interval(e.dtype)
    return (max(iv[0], 0), iv[1]) if isinstance(e, E.SizeVar) else iv


@register(E.Add)
def _add(an: ConstIntBoundAnalyzer, e: Any) -> Interval:
    return iv_add(an.bound(e.a), an.bound(e.b))


@register(E.Sub)
def _sub(an: ConstIntBoundAnalyzer, e: Any) -> Interval:
    a, b = an.bound(e.a), an.bound(e.b)
    return (a[0] - b[1], a[1] - b[0])


@register(E.Mul)
def _mul(an: ConstIntBoundAnalyzer, e: Any) -> Interval:
    return iv_mul(an.bound(e.a), an.bound(e.b))


@register(E.FloorDiv)
def _floordiv(an: ConstIntBoundAnalyzer, e: Any) -> Interval:
    if not e.dtype.is_int() and not e.dtype.is_uint():
        return dtype_interval(e.dtype)
    return iv_div(an.bound(e.a), an.bound(e.b), True)


@register(E.Div)
def _div(an: ConstIntBoundAnalyzer, e: Any) -> Interval:
    if not e.dtype.is_int() and not e.dtype.is_uint():
        return dtype_interval(e.dtype)
    return iv_div(an.bound(e.a), an.bound(e.b), False)


@register(E.FloorMod)
def _floormod(an: ConstIntBoundAnalyzer, e: Any) -> Interval:
    return iv_floormod(an.bound(e.a), an.bound(e.b))


@register(E.Mod)
def _mod(an: ConstIntBoundAnalyzer, e: Any) -> Interval:
    return iv_truncmod(an.bound(e.a), an.bound(e.b))


@register(E.Min)
def _min(an: ConstIntBoundAnalyzer, e: Any) -> Interval:
    a, b = an.bound(e.a), an.bound(e.b)
    return (min(a[0], b[0]), min(a[1], b[1]))


@register(E.Max)
def _max(an: ConstIntBoundAnalyzer, e: Any) -> Interval:
    a, b = an.bound(e.a), an.bound(e.b)
    return (max(a[0], b[0]), max(a[1], b[1]))


@register(E.Select)
def _select(an: ConstIntBoundAnalyzer, e: Any) -> Interval:
    c = an.bound(e.condition)
    if c[0] >= 1:
        return an.bound(e.true_value)
    if c[1] <= 0:
        return an.bound(e.false_value)
    return union(an.bound(e.true_value), an.bound(e.false_value))


@register(E.CmpExpr, E.And, E.Or, E.Not)
def _boolean(_: ConstIntBoundAnalyzer, e: Any) -> Interval:
    return (0, 1)


@register(E.Cast)
def _cast(an: ConstIntBoundAnalyzer, e: Any) -> Interval:
    target = dtype_interval(e.dtype)
    src_t = e.value.dtype
    if e.dtype.is_floating() or not (src_t.is_int() or src_t.is_uint()):
        return target
    inner = an.bound(e.value)
    if inner[0] >= target[0] and inner[1] <= target[1]:
        return inner
    return target


@register(E.Let)
def _let(an: ConstIntBoundAnalyzer, e: Any) -> Interval:
    key = expr_key(e.var)
    old = an.known.get(key)
    an.note_key(key)
    an.known[key] = an.bound(e.value)
    try:
        return an.bound(e.body)
    finally:
        if old is None:
            del an.known[key]
        else:
            an.known[key] = old


@register(E.Broadcast)
def _broadcast(an: ConstIntBoundAnalyzer, e: Any) -> Interval:
    return an.bound(e.value)


@register(E.Ramp)
def _ramp(an: ConstIntBoundAnalyzer, e: Any) -> Interval:
    base, stride = an.bound(e.base), an.bound(e.stride)
    return union(base, iv_add(base, iv_scale(stride, e.lanes - 1)))
