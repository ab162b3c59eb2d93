"""Operator handlers of the parse-time evaluator (TVMScript's ``_register_expr_op`` semantics).

On PrimExprs: node constructors after TVMScript's ``_auto_broadcast`` (Python numbers take the
other operand's dtype; a scalar meeting a vector is broadcast; arithmetic operands of different
dtypes are then matched as TVM's ``BinaryOpMatchTypes`` does). ``+ - * / // %`` fold constants
as TVM's PrimExpr operators do (TVMScript leaves them to those overloads: ``tvm::add`` ...
``arith::TryConstFold``, so ``T.int32(1) + 42`` is ``43`` and ``x * 1`` is ``x``; the printer
spells an unfolded node ``T.Add(1, 42)`` to keep it); comparisons, ``and`` / ``or`` and the
shifts and bitwise operators build their node as TVMScript does. On Python values: Python's
own operators.
"""
from __future__ import annotations

import itertools
import operator
from typing import Any, Callable

from tirkit import tir
from tirkit.ir import PrimExpr

from tirkit.tir.const_fold import try_const_fold
from tirkit.tir.op import match_types

from ..limits import MAX_EXPONENT, MAX_INT_BITS, MAX_SEQUENCE, LimitExceeded
from .evaluator import EvalError, Evaluator, register

_PY_BINOPS: dict[str, Callable[[Any, Any], Any]] = {
    "Add": operator.add, "Sub": operator.sub, "Mult": operator.mul, "Div": operator.truediv,
    "FloorDiv": operator.floordiv, "Mod": operator.mod, "Pow": operator.pow,
    "LShift": operator.lshift, "RShift": operator.rshift, "BitOr": operator.or_,
    "BitXor": operator.xor, "BitAnd": operator.and_, "MatMult": operator.matmul,
}
_IR_BINOPS: dict[str, Callable[[PrimExpr, PrimExpr], PrimExpr]] = {
    "Add": tir.Add, "Sub": tir.Sub, "Mult": tir.Mul, "Div": tir.Div, "FloorDiv": tir.FloorDiv,
    "Mod": tir.FloorMod, "LShift": tir.shift_left, "RShift": tir.shift_right,
    "BitOr": tir.bitwise_or, "BitXor": tir.bitwise_xor, "BitAnd": tir.bitwise_and,
}
_DIVISIONS = ("Div", "FloorDiv", "Mod")
#: operators TVMScript leaves to PrimExpr's overloads (``tvm::add`` ...), which fold constants
#: with ``arith::TryConstFold`` (``x + 0`` is ``x``, ``T.int32(1) + 42`` is ``43``)
_FOLDED: dict[str, type] = {"Add": tir.Add, "Sub": tir.Sub, "Mult": tir.Mul, "Div": tir.Div,
                            "FloorDiv": tir.FloorDiv, "Mod": tir.FloorMod}
_IR_CMPOPS: dict[str, Callable[[PrimExpr, PrimExpr], PrimExpr]] = {
    "Eq": tir.EQ, "NotEq": tir.NE, "Lt": tir.LT, "LtE": tir.LE, "Gt": tir.GT, "GtE": tir.GE,
}
_PY_CMPOPS: dict[str, Callable[[Any, Any], Any]] = {
    "Eq": operator.eq, "NotEq": operator.ne, "Lt": operator.lt, "LtE": operator.le,
    "Gt": operator.gt, "GtE": operator.ge, "In": lambda a, b: a in b,
    "NotIn": lambda a, b: a not in b, "Is": operator.is_, "IsNot": operator.is_not,
}


def op_name(op: Any) -> str:
    """The Python-``ast`` name of an operator node (``Add``, ``USub``, ``Eq``...)."""
    return getattr(op, "name", None) or type(op).__name__


def auto_broadcast(a: Any, b: Any) -> tuple[PrimExpr, PrimExpr]:
    """TVMScript's operand matching: numbers take the other side's dtype; scalar → vector."""
    a, b = tir.convert_pair(a, b)
    la, lb = a.dtype.lanes, b.dtype.lanes
    if la == 1 and lb > 1:
        a = tir.Broadcast(a, lb)
    elif lb == 1 and la > 1:
        b = tir.Broadcast(b, la)
    return a, b


def _is_ir(*values: Any) -> bool:
    return any(isinstance(v, (PrimExpr, tir.IterVar)) for v in values)


def binary(name: str, a: Any, b: Any) -> Any:
    """Apply binary operator ``name`` (Python-``ast`` spelling) with TVMScript semantics.

    Raises:
        TypeError: "unsupported operand ..." for operands the operator does not take.
    """
    for v in (a, b):
        if isinstance(v, tir.Buffer):
            raise TypeError(f"buffer {v.name!r} used as a value: index it (`{v.name}[i]`) or "
                            f"use `{v.name}.data`")
    if _is_ir(a, b) and name in _IR_BINOPS:
        x, y = auto_broadcast(a, b)
        if name in _DIVISIONS and isinstance(y, (tir.IntImm, tir.FloatImm)) and y.value == 0:
            raise ZeroDivisionError("division or modulo by zero")  # TVM: "Divide by zero",
            # when Simplify folds it (tirc reported an internal error from const_fold)
        if x.dtype != y.dtype:  # TVMScript leaves + - * ... to PrimExpr's operators, which
            try:                # match dtypes as BinaryOpMatchTypes does (int32 + int64 -> int64)
                x, y = match_types(x, y)
            except TypeError:
                pass  # the node constructor names both dtypes
        if name in _FOLDED:
            folded = try_const_fold(_FOLDED[name], x, y)
            if folded is not None:
                return folded
        return _IR_BINOPS[name](x, y)
    if name not in _PY_BINOPS:
        raise TypeError(f"unsupported operand: {name} is not defined on {type(a).__name__}")
    _check_size(name, a, b)
    try:
        return _PY_BINOPS[name](a, b)
    except TypeError:
        raise TypeError(f"unsupported operand types for {name}: {type(a).__name__!r} and "
                        f"{type(b).__name__!r}") from None


def _int(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def _check_size(name: str, a: Any, b: Any) -> None:
    """Refuse a Python ``**``, ``<<`` or sequence repetition whose result would be beyond the
    static evaluator's limits, before computing it (``10**10**10`` would run for hours).

    Raises:
        LimitExceeded: naming the limit.
    """
    x, y = _int(a), _int(b)
    if name == "Pow" and y is not None and isinstance(a, (int, float)):
        if y > MAX_EXPONENT and (x is None or abs(x) > 1):
            raise LimitExceeded(f"exponent {y} is beyond the static evaluator's limit of "
                                f"{MAX_EXPONENT}")
        if x is not None and y > 0 and x.bit_length() * y > MAX_INT_BITS + y:
            raise LimitExceeded(f"{x.bit_length()}-bit integer to the power {y} is beyond the "
                                f"static evaluator's {MAX_INT_BITS}-bit integers")
    elif name == "LShift" and x is not None and y is not None and y > MAX_INT_BITS:
        raise LimitExceeded(f"shift by {y} is beyond the static evaluator's {MAX_INT_BITS}-bit "
                            "integers")
    elif name == "Mult":
        for seq, count in ((a, y), (b, x)):
            if isinstance(seq, (str, bytes, list, tuple)) and count is not None \
                    and len(seq) * count > MAX_SEQUENCE:
                raise LimitExceeded(f"sequence of {len(seq)} x {count} elements; the static "
                                    f"evaluator builds at most {MAX_SEQUENCE}")


@register("BinOp")
def _binop(ev: Evaluator, node: Any) -> Any:
    left, right = ev.eval_operand(node.left), ev.eval_operand(node.right)
    for value, sub in ((left, node.left), (right, node.right)):
        if isinstance(value, tir.Buffer):
            raise EvalError(sub, f"buffer {value.name!r} used as a value: index it "
                            f"(`{value.name}[i]`) or use `{value.name}.data`", code="type")
    return binary(op_name(node.op), left, right)


@register("UnaryOp")
def _unaryop(ev: Evaluator, node: Any) -> Any:
    value = ev.eval_operand(node.operand)
    name = op_name(node.op)
    if isinstance(value, PrimExpr):
        if name == "USub":
            if isinstance(value, tir.IntImm):
                return tir.IntImm(value.dtype, -value.value)
            if isinstance(value, tir.FloatImm):
                return tir.FloatImm(value.dtype, -value.value)
            return tir.Mul(value, tir.const(-1, value.dtype))  # a Broadcast for vectors
        if name == "Not":
            return tir.Not(value)
        if name == "Invert":
            return tir.bitwise_not(value)
        return value
    table: dict[str, Callable[[Any], Any]] = {"USub": operator.neg, "UAdd": operator.pos,
                                              "Not": operator.not_, "Invert": operator.invert}
    return table[name](value)


@register("BoolOp")
def _boolop(ev: Evaluator, node: Any) -> Any:
    is_and = op_name(node.op) == "And"
    result = ev.eval_operand(node.values[0])
    for expr in node.values[1:]:
        if not isinstance(result, PrimExpr):
            # Python short-circuit on Python values
            if bool(result) != is_and:
                return result
            result = ev.eval_operand(expr)
            continue
        rhs = tir.convert(ev.eval_operand(expr))
        if result.dtype.lanes > 1 or rhs.dtype.lanes > 1:  # TVM: vectors meet with & / |
            result = (tir.bitwise_and if is_and else tir.bitwise_or)(result, rhs)
        else:
            result = (tir.And if is_and else tir.Or)(result, rhs)
    return result


@register("Compare")
def _compare(ev: Evaluator, node: Any) -> Any:
    left = ev.eval_operand(node.left)
    result: Any = None
    for op, comp in zip(node.ops, node.comparators):
        right = ev.eval_operand(comp)
        name = op_name(op)
        if _is_ir(left, right) and name in _IR_CMPOPS:
            x, y = auto_broadcast(left, right)
            part: Any = _IR_CMPOPS[name](x, y)
        else:
            part = _PY_CMPOPS[name](left, right)
        if result is None:
            result = part
        elif isinstance(result, PrimExpr) or isinstance(part, PrimExpr):
            result = tir.And(tir.convert(result), tir.convert(part))
        else:
            result = result and part
        left = right
    return result


@register("IfExp")
def _ifexp(ev: Evaluator, node: Any) -> Any:
    cond = ev.eval(node.test)
    if isinstance(cond, PrimExpr) and not isinstance(cond, tir.IntImm):
        then, other = auto_broadcast(ev.eval(node.body), ev.eval(node.orelse))
        return tir.if_then_else(cond, then, other)
    return ev.eval(node.body) if bool(cond) else ev.eval(node.orelse)


@register("Starred")
def _starred(ev: Evaluator, node: Any) -> Any:
    raise EvalError(node, "a starred expression is only allowed in a call or a display")


def _comprehension(ev: Evaluator, generators: Any, emit: Callable[[], None]) -> None:
    if not generators:
        emit()
        return
    gen, rest = generators[0], generators[1:]
    iterable = ev.eval(gen.iter)
    if not isinstance(iterable, (list, tuple, range, dict, set, str)):
        raise EvalError(gen.iter, "a comprehension must iterate over a Python sequence")
    for item in iterable:
        with ev.table.frame():
            bind_target(ev, gen.target, item)
            if all(bool(ev.eval(c)) for c in gen.ifs):
                _comprehension(ev, rest, emit)


def bind_target(ev: Evaluator, target: Any, value: Any) -> None:
    """Bind a Name / Tuple / List target (with at most one ``*rest``) to ``value`` in the
    innermost scope; a bare ``*ax`` (a ``for *ax in T.grid(...)`` target) takes the list."""
    kind = type(target).__name__
    if kind == "Name":
        ev.table.add(target.id, value)
    elif kind == "Starred":
        bind_target(ev, target.value, list(value))
    elif kind in ("Tuple", "List"):
        for t, v in unpack_pairs(target, value):
            bind_target(ev, t, v)
    else:
        raise EvalError(target, f"cannot bind to a {kind}")


def unpack_pairs(target: Any, value: Any) -> list[tuple[Any, Any]]:
    """``(target element, value)`` pairs of a tuple/list target under Python's unpacking rules:
    a starred element takes the middle values as a list.

    From an iterable other than a list or tuple at most ``len(elts) + 1`` values are taken
    without a starred element (enough to tell a count that does not fit), ``MAX_SEQUENCE`` with
    one: an object that iterates without end cannot hold the parser.

    Raises:
        EvalError: when the counts do not fit.
        LimitExceeded: a starred element would take more than ``MAX_SEQUENCE`` values.
    """
    elts = list(target.elts)
    star = next((k for k, e in enumerate(elts) if type(e).__name__ == "Starred"), None)
    if isinstance(value, (list, tuple)):
        values = list(value)
    else:
        cap = len(elts) + 1 if star is None else MAX_SEQUENCE + len(elts)
        values = list(itertools.islice(value, cap))
        if star is not None and len(values) == cap:
            raise LimitExceeded(f"more than {MAX_SEQUENCE} values to unpack")
    if star is None:
        if len(values) > len(elts):
            count = len(value) if hasattr(value, "__len__") else None
            raise EvalError(target, f"expected {len(elts)} values to unpack, got {count}"
                            if count is not None else
                            f"too many values to unpack (expected {len(elts)})")
        if len(values) < len(elts):
            raise EvalError(target, f"expected {len(elts)} values to unpack, got {len(values)}")
        return list(zip(elts, values))
    after = len(elts) - star - 1
    if len(values) < len(elts) - 1:
        raise EvalError(target, f"expected at least {len(elts) - 1} values to unpack, got "
                        f"{len(values)}")
    middle = values[star:len(values) - after]
    return (list(zip(elts[:star], values[:star])) + [(elts[star], middle)]
            + list(zip(elts[star + 1:], values[len(values) - after:])))


@register("ListComp", "GeneratorExp", "SetComp")
def _listcomp(ev: Evaluator, node: Any) -> Any:
    out: list[Any] = []
    _comprehension(ev, node.generators, lambda: out.append(ev.eval(node.elt)))
    return set(out) if type(node).__name__ == "SetComp" else out


@register("DictComp")
def _dictcomp(ev: Evaluator, node: Any) -> Any:
    out: dict[Any, Any] = {}

    def emit() -> None:
        out[ev.eval(node.key)] = ev.eval(node.value)
    _comprehension(ev, node.generators, emit)
    return out
