"""Relax expressions, bindings and functions (mirrors ``tvm.relax.expr``).

A Relax function is a :class:`SeqExpr` of binding blocks: each binding binds a :class:`Var` to a
value (:class:`VarBinding`) or casts a value to a more precise struct info, defining new symbolic
dimensions on the way (:class:`MatchCast`). :class:`DataflowBlock`\\ s hold pure computation; only
the vars they ``R.output`` are visible after them.

Every expression carries ``struct_info_`` once normalized (by the :class:`BlockBuilder`, the
parser or :func:`tirkit.relax.analysis.infer`); ``expr.struct_info`` reads it.
"""
from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING, Any, Iterable, Sequence, cast

import numpy as np

from tirkit.ir.expr import BaseExpr, GlobalVar, PrimExpr
from tirkit.ir.module import BaseFunc
from tirkit.ir.node import (AttrsField, Coerced, TupleOf, coerced_field, def_field, ignored_field,
                            node)
from tirkit.ir.op import Op

from .struct_info import (ObjectStructInfo, PrimStructInfo, ShapeStructInfo, StructInfo,
                          TensorStructInfo, TupleStructInfo, as_dim)

__all__ = ["Expr", "Var", "DataflowVar", "Constant", "ShapeExpr", "PrimValue", "StringImm",
           "Tuple", "TupleGetItem", "Call", "ExternFunc", "Binding", "VarBinding", "MatchCast",
           "BindingBlock", "DataflowBlock", "SeqExpr", "Function", "const"]


@node
class Expr(BaseExpr):
    """Base of Relax expressions (``tvm.relax.Expr``)."""

    if TYPE_CHECKING:  # every subclass has a struct_info_ field (None until normalized)
        @property
        def struct_info_(self) -> StructInfo | None:
            """The struct info, or None before normalization."""

    @property
    def struct_info(self) -> StructInfo:
        """The expression's struct info (``Expr.struct_info``).

        Raises:
            ValueError: when the expression was never normalized (no struct info yet).
        """
        if self.struct_info_ is None:
            raise ValueError(f"{type(self).__name__} has no struct info yet: normalize it with "
                             "BlockBuilder.normalize")
        return self.struct_info_

    def __iter__(self) -> Any:
        """Not iterable (``x[i]`` is a ``TupleGetItem``): without this Python would iterate
        ``x[0], x[1], ...`` without end."""
        raise TypeError(f"a Relax {type(self).__name__} is not iterable; index it: x[0], x[1]")

    def __getitem__(self, index: int) -> "TupleGetItem":
        return TupleGetItem(self, index)


@node
class Var(Expr):
    """A Relax variable with its struct info (``tvm.relax.Var``): ``Var("x",
    R.Tensor((n, 4), "float32"))``. Compared by binding site; the name is ignored."""

    name_hint: str = ignored_field(default="v")
    struct_info_: StructInfo | None = None

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        return self.name_hint


@node
class DataflowVar(Var):
    """A variable local to a dataflow block (``tvm.relax.DataflowVar``)."""

    __hash__ = Var.__hash__


@node
class Constant(Expr):
    """A constant tensor backed by a NumPy array (``tvm.relax.Constant``)."""

    struct_info_: StructInfo | None = ignored_field(default=None, kw_only=True)  # derived
    data: Any = None

    def __post_init__(self) -> None:
        arr = np.asarray(self.data)
        object.__setattr__(self, "data", arr)
        if self.struct_info_ is None:
            object.__setattr__(self, "struct_info_", TensorStructInfo(arr.shape, str(arr.dtype)))


@node
class ShapeExpr(Expr):
    """A shape value ``R.shape([n, 4])`` (``tvm.relax.ShapeExpr``); dims are int64 PrimExprs."""

    struct_info_: StructInfo | None = ignored_field(default=None, kw_only=True)  # derived
    values: Coerced[tuple[PrimExpr, ...], Iterable[PrimExpr | int]] = coerced_field(default=())

    def __post_init__(self) -> None:
        vals = tuple(as_dim(v) for v in self.values)
        object.__setattr__(self, "values", vals)
        object.__setattr__(self, "struct_info_", ShapeStructInfo(vals))


@node
class PrimValue(Expr):
    """A scalar value ``R.prim_value(n)`` (``tvm.relax.PrimValue``)."""

    struct_info_: StructInfo | None = ignored_field(default=None, kw_only=True)  # derived
    value: Coerced[PrimExpr, PrimExpr | int] = coerced_field(default=None)

    def __post_init__(self) -> None:
        if isinstance(self.value, int) and not isinstance(self.value, bool):
            from tirkit import tir  # pylint: disable=import-outside-toplevel

            object.__setattr__(self, "value", tir.IntImm("int64", self.value))
        object.__setattr__(self, "struct_info_", PrimStructInfo(self.value.dtype, self.value))


@node
class StringImm(Expr):
    """A string constant (``tvm.relax.StringImm``)."""

    struct_info_: StructInfo | None = ignored_field(default=None, kw_only=True)  # derived
    value: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "struct_info_", ObjectStructInfo())


@node
class Tuple(Expr):
    """A tuple of expressions (``tvm.relax.Tuple``)."""

    struct_info_: StructInfo | None = ignored_field(default=None, kw_only=True)  # derived
    fields: TupleOf[Expr] = coerced_field(default=())

    def __post_init__(self) -> None:
        object.__setattr__(self, "fields", tuple(self.fields))
        if self.struct_info_ is None and all(f.struct_info_ is not None for f in self.fields):
            object.__setattr__(self, "struct_info_",
                               TupleStructInfo([cast(StructInfo, f.struct_info_)
                                                for f in self.fields]))


@node
class TupleGetItem(Expr):
    """``t[i]`` (``tvm.relax.TupleGetItem``)."""

    struct_info_: StructInfo | None = ignored_field(default=None, kw_only=True)  # derived
    tuple_value: Expr = None  # type: ignore[assignment]
    index: int = 0

    def __post_init__(self) -> None:
        sinfo = self.tuple_value.struct_info_
        if self.struct_info_ is None and isinstance(sinfo, TupleStructInfo):
            if not 0 <= self.index < len(sinfo.fields):
                raise IndexError(f"tuple index {self.index} out of range for a tuple of "
                                 f"{len(sinfo.fields)} fields")
            object.__setattr__(self, "struct_info_", sinfo.fields[self.index])


@node
class ExternFunc(Expr):
    """A packed function called by name (``tvm.relax.ExternFunc``)."""

    struct_info_: StructInfo | None = ignored_field(default=None, kw_only=True)  # derived
    global_symbol: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "struct_info_", ObjectStructInfo())


@node
class Call(Expr):
    """A call of an op, a function or a GlobalVar (``tvm.relax.Call``).

    ``attrs`` holds the op's attributes by name (TVM's ``Attrs`` objects); ``sinfo_args`` the
    struct info arguments (``call_tir``'s output struct info).
    """

    struct_info_: StructInfo | None = ignored_field(default=None, kw_only=True)  # derived
    op: Any = None
    args: TupleOf[Expr] = coerced_field(default=())
    attrs: AttrsField = coerced_field(default_factory=dict)
    sinfo_args: TupleOf[StructInfo] = coerced_field(default=())

    def __post_init__(self) -> None:
        object.__setattr__(self, "args", tuple(self.args))
        object.__setattr__(self, "attrs", dict(self.attrs or {}))
        object.__setattr__(self, "sinfo_args", tuple(self.sinfo_args))


@node
class Binding(BaseExpr):
    """Base of bindings (``tvm.relax.Binding``)."""

    if TYPE_CHECKING:  # both kinds bind a var to a value
        @property
        def var(self) -> Var:
            """The bound var."""

        @property
        def value(self) -> Expr:
            """The bound value."""


@node
class VarBinding(Binding):
    """``var = value`` (``tvm.relax.VarBinding``)."""

    var: Var = def_field(default=None)
    value: Expr = None  # type: ignore[assignment]


@node
class MatchCast(Binding):
    """``var = R.match_cast(value, struct_info)`` (``tvm.relax.MatchCast``): checks ``value``
    against ``struct_info`` at run time and binds the symbolic dims it introduces."""

    var: Var = def_field(default=None)
    value: Expr = None  # type: ignore[assignment]
    struct_info: StructInfo = def_field(default=None)


@node
class BindingBlock(BaseExpr):
    """A sequence of bindings (``tvm.relax.BindingBlock``)."""

    bindings: TupleOf[Binding] = coerced_field(default=())

    def __post_init__(self) -> None:
        object.__setattr__(self, "bindings", tuple(self.bindings))


@node
class DataflowBlock(BindingBlock):
    """A block of pure bindings (``with R.dataflow():``; ``tvm.relax.DataflowBlock``)."""


@node
class SeqExpr(Expr):
    """Binding blocks followed by a result expression (``tvm.relax.SeqExpr``)."""

    struct_info_: StructInfo | None = ignored_field(default=None, kw_only=True)  # derived
    blocks: TupleOf[BindingBlock] = coerced_field(default=())
    body: Expr = None  # type: ignore[assignment]

    def __post_init__(self) -> None:
        object.__setattr__(self, "blocks", tuple(self.blocks))
        if self.struct_info_ is None and self.body is not None:
            object.__setattr__(self, "struct_info_", self.body.struct_info_)


@node
class Function(BaseFunc, Expr):
    """A Relax function (``tvm.relax.Function``): ``params`` (defining their symbolic dims),
    a body (a :class:`SeqExpr`), the return struct info, purity and attributes."""

    __script_header__ = True  # script() prints the import header, as for a PrimFunc

    struct_info_: StructInfo | None = ignored_field(default=None, kw_only=True)  # derived
    params: TupleOf[Var] = def_field(default=())
    body: Expr = None  # type: ignore[assignment]
    ret_struct_info: StructInfo = field(default_factory=ObjectStructInfo)
    is_pure: bool = True
    attrs: AttrsField = coerced_field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", tuple(self.params))
        object.__setattr__(self, "attrs", dict(self.attrs or {}))
        from .struct_info import FuncStructInfo  # pylint: disable=import-outside-toplevel

        object.__setattr__(self, "struct_info_", FuncStructInfo(
            [p.struct_info_ or ObjectStructInfo() for p in self.params], self.ret_struct_info,
            self.is_pure))


def const(value: Any, dtype: str | None = None) -> Constant:
    """A constant tensor from a Python value or array (``tvm.relax.const``)."""
    arr = np.asarray(value, dtype=dtype) if dtype else np.asarray(value)
    if arr.dtype == np.float64 and dtype is None:
        arr = arr.astype("float32")
    if arr.dtype == np.int64 and dtype is None and not isinstance(value, np.ndarray):
        arr = arr.astype("int32")
    return Constant(arr)


def callee_name(op: Any) -> str:
    """A printable name of a call target: an Op's name or a GlobalVar's name hint."""
    if isinstance(op, Op):
        return op.name
    if isinstance(op, GlobalVar):
        return op.name_hint
    return type(op).__name__


def is_tensor(sinfo: Any) -> bool:
    """Whether ``sinfo`` is a :class:`TensorStructInfo`."""
    return isinstance(sinfo, TensorStructInfo)


def as_sequence(value: Any) -> Sequence[Any]:
    """``value`` as a tuple (a single expression becomes a 1-tuple)."""
    if isinstance(value, Tuple):
        return value.fields
    if isinstance(value, (list, tuple)):
        return tuple(value)
    return (value,)
