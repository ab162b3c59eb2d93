"""Structural information of Relax values (mirrors ``tvm.relax.StructInfo`` and its subclasses).

Struct info says what a value is — a tensor of a given (possibly symbolic) shape and dtype, a
shape, a scalar, a tuple, a function — and is what shape inference computes. Symbolic dimensions
are TIR variables (``tir.Var("n", "int64")``); a dimension may be any ``PrimExpr`` over them.
"""
from __future__ import annotations

from dataclasses import field
from typing import Any, Iterable, Sequence

from tirkit import tir
from tirkit.ir.dtype import DataType, dtype as _dtype
from tirkit.ir.expr import PrimExpr
from tirkit.ir.node import Coerced, Node, TupleOf, node, coerced_field

__all__ = ["StructInfo", "ObjectStructInfo", "PrimStructInfo", "ShapeStructInfo",
           "TensorStructInfo", "TupleStructInfo", "FuncStructInfo", "as_dim"]


def as_dim(value: Any) -> PrimExpr:
    """A shape dimension as an ``int64`` PrimExpr (Python ints become ``IntImm("int64")``).

    Raises:
        TypeError: for a value that is neither an int nor an integer PrimExpr.
    """
    if isinstance(value, bool):
        raise TypeError(f"a shape dimension must be an integer, got {value!r}")
    if isinstance(value, int):
        return tir.IntImm("int64", value)
    if isinstance(value, PrimExpr):
        if not value.dtype.is_int() and not value.dtype.is_uint():
            raise TypeError(f"a shape dimension must be an integer expression, got {value.dtype}")
        if isinstance(value, tir.IntImm) and value.dtype != "int64":
            return tir.IntImm("int64", value.value)
        return value
    raise TypeError(f"a shape dimension must be an int or PrimExpr, got {type(value).__name__}")


@node
class StructInfo(Node):
    """Base of all struct info (``tvm.relax.StructInfo``)."""


@node
class ObjectStructInfo(StructInfo):
    """Any value (``R.Object``; ``tvm.relax.ObjectStructInfo``)."""


@node
class PrimStructInfo(StructInfo):
    """A scalar of ``dtype``, optionally with a known ``value`` (``R.Prim``;
    ``tvm.relax.PrimStructInfo``)."""

    dtype: Coerced[DataType, str | DataType] = coerced_field(default="int64")
    value: PrimExpr | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "dtype", _dtype(self.dtype))


@node
class ShapeStructInfo(StructInfo):
    """A shape value: its dims when known, else its rank ``ndim`` (-1: unknown)
    (``R.Shape``; ``tvm.relax.ShapeStructInfo``)."""

    values: Coerced[tuple[PrimExpr, ...] | None, Iterable[PrimExpr | int] | None] = \
        coerced_field(default=None)
    ndim: int = -1

    def __post_init__(self) -> None:
        if self.values is not None:
            vals = tuple(as_dim(v) for v in self.values)
            object.__setattr__(self, "values", vals)
            object.__setattr__(self, "ndim", len(vals))


@node
class TensorStructInfo(StructInfo):
    """A tensor (``R.Tensor((n, 4), "float32")``; ``tvm.relax.TensorStructInfo``).

    ``shape`` is a tuple of int64 PrimExprs when known (the ``ShapeExpr`` of TVM, kept as a tuple
    here), ``None`` otherwise; ``ndim`` is the rank (-1: unknown); ``dtype`` may be ``"void"``
    when unknown.
    """

    shape: Coerced[tuple[PrimExpr, ...] | None,
                   Iterable[PrimExpr | int] | ShapeStructInfo | None] = coerced_field(default=None)
    dtype: Coerced[DataType, str | DataType | None] = coerced_field(default="float32")
    ndim: int = -1

    def __post_init__(self) -> None:
        object.__setattr__(self, "dtype", _dtype(self.dtype or "void"))
        shape: Any = self.shape
        if isinstance(shape, ShapeStructInfo):  # its dims, or only its rank
            if shape.values is None and self.ndim not in (-1, shape.ndim) and shape.ndim != -1:
                raise ValueError(f"TensorStructInfo: ndim={self.ndim} but the shape has "
                                 f"{shape.ndim} dimensions")
            if shape.values is None and shape.ndim != -1:
                object.__setattr__(self, "ndim", shape.ndim)
            shape = shape.values
            object.__setattr__(self, "shape", shape)
        if shape is not None:
            dims = tuple(as_dim(v) for v in shape)
            if self.ndim not in (-1, len(dims)):
                raise ValueError(f"TensorStructInfo: ndim={self.ndim} but the shape has "
                                 f"{len(dims)} dimensions")
            object.__setattr__(self, "shape", dims)
            object.__setattr__(self, "ndim", len(dims))

    @property
    def is_unknown_ndim(self) -> bool:
        """Whether the rank is unknown."""
        return self.ndim == -1


@node
class TupleStructInfo(StructInfo):
    """A tuple of values (``R.Tuple(...)``; ``tvm.relax.TupleStructInfo``)."""

    fields: TupleOf[StructInfo] = coerced_field(default=())

    def __post_init__(self) -> None:
        object.__setattr__(self, "fields", tuple(self.fields))


@node
class FuncStructInfo(StructInfo):
    """A function from ``params`` to ``ret`` (``R.Callable``; ``tvm.relax.FuncStructInfo``)."""

    params: Coerced[tuple[StructInfo, ...] | None, Iterable[StructInfo] | None] = \
        coerced_field(default=None)
    ret: StructInfo = field(default_factory=ObjectStructInfo)
    purity: bool = True

    def __post_init__(self) -> None:
        if self.params is not None:
            object.__setattr__(self, "params", tuple(self.params))


def dims_of(sinfo: StructInfo) -> Sequence[PrimExpr] | None:
    """The shape of a tensor struct info, or ``None`` when it is not a tensor of known shape."""
    if isinstance(sinfo, TensorStructInfo):
        return sinfo.shape
    return None
