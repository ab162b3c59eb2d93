"""Element-wise and broadcasting operators (mirrors ``tvm.topi`` ``add``, ``multiply``,
``exp``, ``clip``, ``cast``, ``broadcast_to`` ...).

Binary operators follow NumPy broadcasting: a dimension of 1 (a constant) stretches, a missing
leading dimension is added; a Python number operand becomes a constant of the other operand's
dtype. Block names follow TVM's ``T_<op>``.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from tirkit import te, tir
from tirkit.ir.expr import PrimExpr

__all__ = ["broadcast_shape", "broadcast_to", "add", "subtract", "multiply", "divide",
           "floor_divide", "power", "maximum", "minimum", "exp", "log", "sqrt", "tanh",
           "sigmoid", "negative", "abs", "clip", "cast", "erf"]


def _is_one(d: PrimExpr) -> bool:
    return isinstance(d, tir.IntImm) and d.value == 1


def broadcast_shape(a: Sequence[PrimExpr], b: Sequence[PrimExpr]) -> tuple[PrimExpr, ...]:
    """The NumPy broadcast of two shapes (TVM ``topi.broadcast_shape`` semantics).

    Raises:
        ValueError: when two constant dims differ and neither is 1.
    """
    a, b = [tir.convert(d) for d in a], [tir.convert(d) for d in b]  # plain ints too
    out: list[tir.PrimExpr] = []
    for k in range(1, max(len(a), len(b)) + 1):
        x = a[-k] if k <= len(a) else None
        y = b[-k] if k <= len(b) else None
        if x is None or (y is not None and _is_one(x)):
            assert y is not None  # (k is within a or within b)
            out.append(y)
        elif y is None or _is_one(y):
            out.append(x)
        else:
            if isinstance(x, tir.IntImm) and isinstance(y, tir.IntImm) and x.value != y.value:
                raise ValueError(f"shapes {tuple(a)} and {tuple(b)} do not broadcast")
            out.append(x)
    return tuple(reversed(out))


def _index(t: te.Tensor, out_ndim: int, idx: Sequence[Any]) -> list[Any]:
    lead = out_ndim - t.ndim
    return [tir.const(0, d.dtype) if _is_one(d) else idx[lead + k] for k, d in enumerate(t.shape)]


def _operand(x: Any, like: Any) -> Any:
    if isinstance(x, te.Tensor):
        return x
    dtype = like.dtype if isinstance(like, te.Tensor) else None
    return tir.const(x, dtype) if dtype else tir.convert(x)


def _binary(name: str, fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    def op(lhs: Any, rhs: Any) -> Any:
        lhs, rhs = _operand(lhs, rhs), _operand(rhs, lhs)
        if not isinstance(lhs, te.Tensor) and not isinstance(rhs, te.Tensor):
            return fn(lhs, rhs)
        shape = broadcast_shape(getattr(lhs, "shape", ()), getattr(rhs, "shape", ()))

        def body(*idx: Any) -> Any:
            a = lhs[_index(lhs, len(shape), idx)] if isinstance(lhs, te.Tensor) else lhs
            b = rhs[_index(rhs, len(shape), idx)] if isinstance(rhs, te.Tensor) else rhs
            return fn(a, b)
        return te.compute(shape, body, name=f"T_{name}", tag="broadcast")
    op.__name__ = name
    op.__doc__ = f"Element-wise ``{name}`` with NumPy broadcasting (``topi.{name}``)."
    return op


add = _binary("add", lambda a, b: a + b)
subtract = _binary("subtract", lambda a, b: a - b)
multiply = _binary("multiply", lambda a, b: a * b)
divide = _binary("divide", lambda a, b: a / b)
floor_divide = _binary("floor_divide", tir.floordiv)
power = _binary("power", tir.power)
maximum = _binary("maximum", tir.max)
minimum = _binary("minimum", tir.min)


def broadcast_to(data: te.Tensor, shape: Sequence[Any]) -> te.Tensor:
    """``data`` broadcast to ``shape`` (``topi.broadcast_to``)."""
    out = te.compute(shape, lambda *idx: data[_index(data, len(shape), idx)],
                     name="T_broadcast_to", tag="broadcast")
    return out


def _unary(name: str, fn: Callable[[Any], Any]) -> Callable[[te.Tensor], te.Tensor]:
    def op(x: te.Tensor) -> te.Tensor:
        return te.compute(x.shape, lambda *idx: fn(x[idx]), name=f"T_{name}",
                          tag="elemwise")
    op.__name__ = name
    op.__doc__ = f"Element-wise ``{name}`` (``topi.{name}``)."
    return op


exp = _unary("exp", tir.exp)
log = _unary("log", tir.log)
sqrt = _unary("sqrt", tir.sqrt)
tanh = _unary("tanh", tir.tanh)
sigmoid = _unary("sigmoid", tir.sigmoid)
erf = _unary("erf", tir.erf)
negative = _unary("negative", lambda v: -v)
abs = _unary("abs", tir.abs)  # pylint: disable=redefined-builtin


def clip(x: te.Tensor, a_min: Any, a_max: Any) -> te.Tensor:
    """``min(max(x, a_min), a_max)`` element-wise (``topi.clip``)."""
    lo, hi = tir.const(a_min, x.dtype), tir.const(a_max, x.dtype)
    return te.compute(x.shape, lambda *i: tir.min(tir.max(x[i], lo), hi), name="T_clip",
                      tag="elemwise")


def cast(x: te.Tensor, dtype: str) -> te.Tensor:
    """``x`` converted to ``dtype`` element-wise (``topi.cast``)."""
    return te.compute(x.shape, lambda *i: tir.Cast(dtype, x[i]), name="T_cast", tag="elemwise")
