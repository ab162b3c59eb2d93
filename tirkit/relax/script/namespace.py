"""The ``R`` namespace of Relax TVMScript (mirrors ``tvm.script.relax``): struct-info
annotations (``R.Tensor``, ``R.Shape``, ``R.Tuple`` ...), the operators (``R.add``,
``R.nn.relu``, ``R.call_tir`` ...), and the statement markers the parser interprets
(``R.dataflow()``, ``R.output(...)``, ``R.match_cast(...)``, ``R.func_attr(...)``).

Everything here is a plain function over IR values, so the static parser may call it.
"""
from __future__ import annotations

import builtins
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, Sequence

from tirkit.ir.expr import PrimExpr

from .. import expr as rx
from .. import op as _op
from .. import struct_info as si


# ----------------------------------------------------------------------------- annotations
def Tensor(shape: Any = None, dtype: Any = None, ndim: int = -1) -> si.TensorStructInfo:  # pylint: disable=invalid-name
    """``R.Tensor((n, 4), "float32")``: tensor struct info (``R.Tensor``)."""
    if isinstance(shape, builtins.str) and dtype is None:
        shape, dtype = None, shape
    if isinstance(shape, rx.ShapeExpr):
        shape = shape.values
    return si.TensorStructInfo(tuple(shape) if shape is not None else None, dtype or "void",
                               ndim)


def Shape(values: Sequence[Any] | None = None, ndim: int = -1) -> si.ShapeStructInfo:  # pylint: disable=invalid-name
    """``R.Shape([n, 4])``: shape struct info (``R.Shape``)."""
    return si.ShapeStructInfo(tuple(values) if values is not None else None, ndim)


def Prim(dtype: Any = None, value: PrimExpr | None = None) -> si.PrimStructInfo:  # pylint: disable=invalid-name
    """``R.Prim("int64")`` / ``R.Prim(value=n)``: scalar struct info (``R.Prim``)."""
    return si.PrimStructInfo(dtype or (value.dtype if value is not None else "int64"), value)


def Tuple(*fields: si.StructInfo) -> si.TupleStructInfo:  # pylint: disable=invalid-name
    """``R.Tuple(R.Tensor(...), ...)``: tuple struct info (``R.Tuple``)."""
    return si.TupleStructInfo(list(fields))


def Callable(params: Sequence[si.StructInfo], ret: si.StructInfo) -> si.FuncStructInfo:  # pylint: disable=invalid-name
    """``R.Callable((params...), ret)``: function struct info (``R.Callable``)."""
    return si.FuncStructInfo(list(params), ret)


Object = si.ObjectStructInfo()


# ------------------------------------------------------------------------------ statements
@dataclass
class DataflowMarker:
    """What ``R.dataflow()`` evaluates to; the parser opens a dataflow block for it."""


@dataclass
class OutputMarker:
    """What ``R.output(a, b)`` evaluates to: the vars visible after the dataflow block."""

    vars: tuple[Any, ...]


@dataclass
class MatchCastMarker:
    """What ``R.match_cast(value, sinfo)`` evaluates to; the parser binds a MatchCast."""

    value: Any
    struct_info: si.StructInfo


@dataclass
class FuncAttrMarker:
    """What ``R.func_attr({...})`` evaluates to: attributes of the enclosing function."""

    attrs: dict[str, Any]


def dataflow() -> DataflowMarker:
    """``with R.dataflow():`` opens a dataflow block (``R.dataflow``)."""
    return DataflowMarker()


def output(*vars: Any) -> OutputMarker:  # pylint: disable=redefined-builtin
    """``R.output(gv, ...)``: the dataflow block's outputs (``R.output``)."""
    return OutputMarker(vars)


def match_cast(value: Any, struct_info: si.StructInfo) -> MatchCastMarker:
    """``x = R.match_cast(value, R.Tensor((m,), "float32"))`` (``R.match_cast``)."""
    return MatchCastMarker(value, struct_info)


def func_attr(attrs: dict[builtins.str, Any]) -> FuncAttrMarker:
    """``R.func_attr({...})``: set the function's attributes (``R.func_attr``)."""
    return FuncAttrMarker(dict(attrs))


def function(*args: Any, **kwargs: Any) -> Any:
    """``@R.function`` / ``@R.function(private=True, pure=False)``: marks a Relax function
    (the parser reads it; calling it on a Python function is decorator mode, not supported)."""
    if args and callable(args[0]) and not kwargs:
        raise NotImplementedError("@R.function in decorator mode: parse the file with "
                                  "tirkit.lang.from_source / parse_file instead")
    del args
    return SimpleNamespace(relax_function_flags=kwargs, tirkit_dialect="relax")


function.tirkit_dialect = "relax"  # type: ignore[attr-defined]  # the parser's dispatch token


# -------------------------------------------------------------------------------- values
def shape(values: Sequence[Any]) -> rx.ShapeExpr:
    """``R.shape([n, 4])``: a shape value (``R.shape``)."""
    return rx.ShapeExpr(list(values))


def prim_value(value: Any) -> rx.PrimValue:
    """``R.prim_value(n)`` (``R.prim_value``)."""
    return rx.PrimValue(value)


def str(value: builtins.str) -> rx.StringImm:  # pylint: disable=redefined-builtin
    """``R.str("...")`` (``R.str``)."""
    return rx.StringImm(value)


def const(value: Any, dtype: builtins.str | None = None) -> rx.Constant:
    """``R.const(1.0, "float32")`` (``R.const``)."""
    return rx.const(value, dtype)


def ExternFunc(name: builtins.str) -> rx.ExternFunc:  # pylint: disable=invalid-name
    """``R.ExternFunc("name")`` (``R.ExternFunc``)."""
    return rx.ExternFunc(name)


def _tuple_arg(args: Any) -> Any:
    if isinstance(args, (list, tuple)):
        return rx.Tuple(list(args))
    return args


def call_tir(gvar: Any, args: Any, out_sinfo: Any, tir_vars: Any = None) -> rx.Call:
    """``R.call_tir(cls.f, (x,), out_sinfo=R.Tensor(...))`` (``R.call_tir``)."""
    return _op.call_tir(gvar, _tuple_arg(args), out_sinfo, tir_vars)


def call_tir_dyn(gvar: Any, args: Any, symbolic_ints: Any, out_sinfo: Any) -> rx.Call:
    """``R.call_tir_dyn(cls.f, (x,), R.shape([m]), out_sinfo=...)`` (seed 004)."""
    return _op.call_tir_dyn(gvar, _tuple_arg(args), out_sinfo, symbolic_ints)


def call_dps_packed(func: Any, args: Any, out_sinfo: Any) -> rx.Call:
    """``R.call_dps_packed("name", (x,), out_sinfo=...)`` (``R.call_dps_packed``)."""
    return _op.call_dps_packed(func, _tuple_arg(args), out_sinfo)


add, subtract, multiply, divide = _op.add, _op.subtract, _op.multiply, _op.divide
maximum, minimum, matmul = _op.maximum, _op.minimum, _op.matmul
exp, log, sqrt, tanh, sigmoid, negative = (_op.exp, _op.log, _op.sqrt, _op.tanh, _op.sigmoid,
                                           _op.negative)
reshape, permute_dims, sum, mean = _op.reshape, _op.permute_dims, _op.sum, _op.mean  # pylint: disable=redefined-builtin


def concat(tensors: Any, axis: int = 0) -> rx.Call:
    """``R.concat((a, b), axis=1)`` (``R.concat``)."""
    return _op.concat(_tuple_arg(tensors), axis)


nn = _op.nn
