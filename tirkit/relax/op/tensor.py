"""Element-wise, linear-algebra, manipulation and reduction operators with their struct-info
inference (mirrors ``tvm.relax.op``: ``add``, ``matmul``, ``reshape``, ``sum`` ...).

Every function takes Relax expressions (a Python number is made a scalar constant) and returns a
normalized :class:`~tirkit.relax.expr.Call`. Shapes are int64 dims, symbolic where the inputs
are; inference raises :class:`RelaxOpError` naming the operator and the offending shapes.
"""
from __future__ import annotations

from typing import Any, Sequence

from tirkit import tir

from ..expr import Expr, Tuple, const
from ..struct_info import TensorStructInfo, TupleStructInfo
from .registry import (RelaxOpError, broadcast_shapes, dim_of, make_call, normalize_axis,
                       register, same_dim, tensor_arg, unify_dtype)

def _expr(value: Any, like: Expr | None = None) -> Expr:
    if isinstance(value, Expr):
        return value
    if not isinstance(value, (int, float)):  # (bool is an int)
        raise RelaxOpError(f"an operand must be a Relax expression or a Python number, got "
                           f"{type(value).__name__} {value!r}")
    dtype = None
    sinfo = getattr(like, "struct_info_", None)
    if isinstance(sinfo, TensorStructInfo) and not sinfo.dtype.is_void():
        dtype = str(sinfo.dtype)
    return const(value, dtype)


# ------------------------------------------------------------------------------- binary ops
def _infer_binary(call: Any) -> TensorStructInfo:
    a, b = tensor_arg(call, 0), tensor_arg(call, 1)
    dtype = unify_dtype(call.op.name, a, b)
    if a.shape is None or b.shape is None:
        return TensorStructInfo(None, dtype, max(a.ndim, b.ndim) if -1 not in (a.ndim, b.ndim)
                                else -1)
    return TensorStructInfo(broadcast_shapes(call.op.name, a.shape, b.shape), dtype)


BINARY = ("add", "subtract", "multiply", "divide", "floor_divide", "power", "maximum",
          "minimum")
for _name in BINARY:
    register(_name, _infer_binary, f"element-wise {_name} with NumPy broadcasting")


def _binary(name: str, x1: Any, x2: Any) -> Any:
    x1 = _expr(x1, x2 if isinstance(x2, Expr) else None)
    return make_call(name, [x1, _expr(x2, x1)])


def add(x1: Any, x2: Any) -> Any:
    """``x1 + x2`` with broadcasting (``relax.op.add``)."""
    return _binary("add", x1, x2)


def subtract(x1: Any, x2: Any) -> Any:
    """``x1 - x2`` with broadcasting (``relax.op.subtract``)."""
    return _binary("subtract", x1, x2)


def multiply(x1: Any, x2: Any) -> Any:
    """``x1 * x2`` with broadcasting (``relax.op.multiply``)."""
    return _binary("multiply", x1, x2)


def divide(x1: Any, x2: Any) -> Any:
    """``x1 / x2`` with broadcasting (``relax.op.divide``)."""
    return _binary("divide", x1, x2)


def maximum(x1: Any, x2: Any) -> Any:
    """Element-wise maximum (``relax.op.maximum``)."""
    return _binary("maximum", x1, x2)


def minimum(x1: Any, x2: Any) -> Any:
    """Element-wise minimum (``relax.op.minimum``)."""
    return _binary("minimum", x1, x2)


# -------------------------------------------------------------------------------- unary ops
def _infer_unary(call: Any) -> TensorStructInfo:
    return tensor_arg(call, 0)


def _infer_float_unary(call: Any) -> TensorStructInfo:
    """TVM's ``InferStructInfoUnaryArith<require_float_dtype=true>``."""
    x = tensor_arg(call, 0)
    if not x.dtype.is_void() and not x.dtype.is_float():
        raise RelaxOpError(f"{call.op.name} requires the input tensor to have float dtype, got "
                           f"{x.dtype}")
    return x


UNARY = ("exp", "log", "sqrt", "tanh", "sigmoid", "negative", "abs", "nn.relu", "nn.gelu",
         "nn.silu")
#: the unary ops TVM registers with require_float_dtype=true (src/relax/op/tensor/unary.cc, nn.cc)
FLOAT_UNARY = ("exp", "log", "sqrt", "tanh", "sigmoid", "nn.gelu", "nn.silu")
for _name in UNARY:
    register(_name, _infer_float_unary if _name in FLOAT_UNARY else _infer_unary,
             f"element-wise {_name}")


def unary(name: str, x: Expr) -> Any:
    """A normalized call of the unary op ``relax.<name>``."""
    return make_call(name, [x])


# ------------------------------------------------------------------------------ matmul
def _infer_matmul(call: Any) -> TensorStructInfo:
    a, b = tensor_arg(call, 0, "x1"), tensor_arg(call, 1, "x2")
    dtype = call.attrs.get("out_dtype") or unify_dtype("relax.matmul", a, b)
    if a.shape is None or b.shape is None:
        return TensorStructInfo(None, dtype)
    if a.ndim < 1 or b.ndim < 1:
        raise RelaxOpError("relax.matmul: operands must have rank >= 1")
    sa = a.shape if a.ndim > 1 else (tir.IntImm("int64", 1),) + a.shape
    sb = b.shape if b.ndim > 1 else b.shape + (tir.IntImm("int64", 1),)
    if not same_dim(sa[-1], sb[-2]):
        raise RelaxOpError(f"relax.matmul: reduction dims differ: {a.shape} @ {b.shape} "
                           f"({sa[-1]} vs {sb[-2]})")
    batch = broadcast_shapes("relax.matmul", sa[:-2], sb[:-2])
    out = batch + ((sa[-2],) if a.ndim > 1 else ()) + ((sb[-1],) if b.ndim > 1 else ())
    return TensorStructInfo(out, dtype)


register("matmul", _infer_matmul, "matrix product with batch broadcasting (NumPy matmul)")


def matmul(x1: Expr, x2: Expr, out_dtype: str | None = None) -> Any:
    """``x1 @ x2`` (``relax.op.matmul``): (..., n, k) @ (..., k, m) -> (..., n, m)."""
    return make_call("matmul", [x1, x2], {"out_dtype": out_dtype} if out_dtype else {})


# --------------------------------------------------------------------------- manipulation
def _infer_reshape(call: Any) -> TensorStructInfo:
    x = tensor_arg(call, 0)
    shape = list(call.attrs["shape"])
    if shape.count(-1) > 1:
        raise RelaxOpError("relax.reshape: at most one dimension may be -1")
    if -1 in shape or (isinstance(x.shape, tuple) and _known_size(x.shape) is not None
                       and _known_size(shape) is not None
                       and _known_size(x.shape) != _known_size(shape)):
        total = _known_size(x.shape) if x.shape is not None else None
        rest = _known_size([d for d in shape if not (isinstance(d, int) and d == -1)])
        if -1 not in shape:
            raise RelaxOpError(f"relax.reshape: cannot reshape {x.shape} ({total} elements) to "
                               f"{tuple(shape)}")
        if total is None or rest is None or rest == 0 or total % rest:
            raise RelaxOpError(f"relax.reshape: cannot infer -1 reshaping {x.shape} to "
                               f"{tuple(shape)}")
        shape[shape.index(-1)] = total // rest
    return TensorStructInfo(tuple(dim_of(d) for d in shape), x.dtype)


def _known_size(shape: Sequence[Any]) -> int | None:
    total = 1
    for d in shape:
        d = d.value if isinstance(d, tir.IntImm) else d
        if not isinstance(d, int):
            return None
        total *= d
    return total


register("reshape", _infer_reshape, "reshape (one dim may be -1)")


def reshape(x: Expr, shape: Sequence[Any]) -> Any:
    """``x`` reshaped (``relax.op.reshape``); one dim may be -1."""
    return make_call("reshape", [x], {"shape": tuple(shape)})


def _infer_permute(call: Any) -> TensorStructInfo:
    x = tensor_arg(call, 0)
    axes = call.attrs.get("axes")
    if x.shape is None:
        return TensorStructInfo(None, x.dtype, x.ndim)
    axes = tuple(range(x.ndim - 1, -1, -1)) if axes is None else tuple(
        normalize_axis("relax.permute_dims", a, x.ndim) for a in axes)
    if sorted(axes) != list(range(x.ndim)):
        raise RelaxOpError(f"relax.permute_dims: axes {axes} are not a permutation of "
                           f"0..{x.ndim - 1}")
    return TensorStructInfo(tuple(x.shape[a] for a in axes), x.dtype)


register("permute_dims", _infer_permute, "transpose by axes")


def permute_dims(x: Expr, axes: Sequence[int] | None = None) -> Any:
    """Transpose (``relax.op.permute_dims``); ``axes=None`` reverses them."""
    return make_call("permute_dims", [x], {"axes": tuple(axes) if axes is not None else None})


def _infer_concat(call: Any) -> TensorStructInfo:
    fields = call.args[0].struct_info_
    if not isinstance(fields, TupleStructInfo) or not fields.fields:
        raise RelaxOpError("relax.concat: expects a non-empty tuple of tensors")
    tensors: list[Any] = list(fields.fields)  # TensorStructInfos of known shape (checked)
    if not all(isinstance(t, TensorStructInfo) and t.shape is not None for t in tensors):
        raise RelaxOpError("relax.concat: every input must be a tensor of known shape")
    first = tensors[0]
    axis = normalize_axis("relax.concat", call.attrs.get("axis", 0), first.ndim)
    total = first.shape[axis]
    for t in tensors[1:]:
        if t.ndim != first.ndim or t.dtype != first.dtype:
            raise RelaxOpError("relax.concat: inputs must have the same rank and dtype")
        for k in range(first.ndim):
            if k != axis and not same_dim(first.shape[k], t.shape[k]):
                raise RelaxOpError(f"relax.concat: shapes {first.shape} and {t.shape} differ "
                                   f"outside axis {axis}")
        total = total + t.shape[axis]
    from tirkit.arith import Analyzer  # pylint: disable=import-outside-toplevel

    shape = list(first.shape)
    shape[axis] = Analyzer().simplify(total)
    return TensorStructInfo(tuple(shape), first.dtype)


register("concat", _infer_concat, "concatenate along an axis")


def concat(tensors: Any, axis: int = 0) -> Any:
    """Concatenation (``relax.op.concat``); ``tensors`` is a Tuple or a list of expressions."""
    tup = tensors if isinstance(tensors, Expr) else Tuple(list(tensors))
    return make_call("concat", [tup], {"axis": axis})


# ------------------------------------------------------------------------------ reductions
def _infer_reduce(call: Any) -> TensorStructInfo:
    x = tensor_arg(call, 0)
    axis, keep = call.attrs.get("axis"), call.attrs.get("keepdims", False)
    if x.shape is None:
        return TensorStructInfo(None, x.dtype)
    listed = [normalize_axis(call.op.name, a, x.ndim) for a in axis or ()]
    if len(set(listed)) != len(listed):
        raise RelaxOpError(f"{call.op.name}: axis {tuple(axis)} names an axis more than once")
    axes = set(range(x.ndim)) if axis is None else set(listed)
    one = tir.IntImm("int64", 1)
    shape = [one if k in axes else d for k, d in enumerate(x.shape) if keep or k not in axes]
    return TensorStructInfo(tuple(shape), x.dtype)


for _name in ("sum", "mean", "max", "min", "prod"):
    register(_name, _infer_reduce, f"{_name} over axes")


def reduce(name: str, x: Expr, axis: Any = None, keepdims: bool = False) -> Any:
    """A reduction ``relax.<name>`` over ``axis`` (an int, a sequence or None for all)."""
    axes = None if axis is None else (tuple(axis) if isinstance(axis, (list, tuple))
                                      else (axis,))
    return make_call(name, [x], {"axis": axes, "keepdims": keepdims})


def sum(x: Expr, axis: Any = None, keepdims: bool = False) -> Any:  # pylint: disable=redefined-builtin
    """Sum over axes (``relax.op.sum``)."""
    return reduce("sum", x, axis, keepdims)


def mean(x: Expr, axis: Any = None, keepdims: bool = False) -> Any:
    """Mean over axes (``relax.op.mean``)."""
    return reduce("mean", x, axis, keepdims)

