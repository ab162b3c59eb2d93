"""TIR expressions (mirrors ``tvm.tir.expr``).

Constructors follow TVM's Python signatures (``Var(name, dtype)``, ``Cast(dtype, value)``,
``Call(dtype, op, args)``, ``Add(a, b)``...). Derived fields (a binary op's ``dtype``) are computed.
Constructors are strict like TVM's: both operands of a binary node must have the same dtype
(Python numbers take the other operand's dtype); operator overloading (``a + b``) is the lenient
path that promotes dtypes as TVM's ``BinaryOpMatchTypes`` does.
"""
from __future__ import annotations

from dataclasses import field
from enum import IntEnum
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from .. import _layers
from ..ir.dtype import DataType, bool_, dtype as _dtype
from ..ir.expr import (DTypeField, ExprField, ExprLike, ExprsField, FloatImm, GlobalVar, IntImm,
                       PrimExpr, Range)
from ..ir.node import Coerced, Node, TupleOf, def_field, ignored_field, node, coerced_field
from ..ir.op import Op
from ..ir.structural import VAR_HANDLERS, register_structural
from ..ir.type import PointerType, PrimType, Type, type_of_dtype

__all__ = [
    "PrimExpr", "IntImm", "FloatImm", "Var", "SizeVar", "StringImm", "Cast", "BinaryOpExpr",
    "Add", "Sub", "Mul", "Div", "Mod", "FloorDiv", "FloorMod", "Min", "Max", "CmpExpr", "EQ", "NE",
    "LT", "LE", "GT", "GE", "And", "Or", "Not", "Select", "BufferLoad", "ProducerLoad", "Ramp",
    "Broadcast", "Shuffle", "Let", "Call", "CallEffectKind", "Reduce", "CommReducer", "IterVar",
    "IterVarType", "Range",
]

from ..ir.op import CallEffectKind  # noqa: E402  (re-export, TVM has it in tvm.tir)


def _as_expr(value: Any, like: PrimExpr | None = None) -> PrimExpr:
    if isinstance(value, PrimExpr):
        return value  # what convert returns for it, without the slot lookup per node
    convert = _layers.get("tir.op").convert  # (tirkit.tir.op imports this module)
    return convert(value, like.dtype if like is not None else None)


def _set(obj: Any, name: str, value: Any) -> None:
    object.__setattr__(obj, name, value)


_SETATTR = object.__setattr__


# ---------------------------------------------------------------------------------- variables
@node
class Var(PrimExpr):
    """A variable (mirrors ``tvm.tir.Var``): ``Var("i", "int32")``.

    ``dtype`` may be a dtype string/``DataType`` or a ``Type``: ``Var("A", PointerType(
    PrimType("float32")))`` is a ``handle`` var whose ``type_annotation`` records the pointee, as
    TVM does for buffer data pointers. Compared by identity (``==`` builds an ``EQ`` node).
    """

    name_hint: str = ignored_field()
    dtype: Any = "int32"
    type_annotation: Type | None = None

    def __post_init__(self) -> None:
        t = self.dtype
        if isinstance(t, Type):
            _set(self, "type_annotation", t)
            t = t.dtype if isinstance(t, PrimType) else _dtype("handle")
        t = _dtype(t)
        _set(self, "dtype", t)
        if self.type_annotation is None:
            _set(self, "type_annotation", type_of_dtype(t))

    @property
    def name(self) -> str:
        """Alias of ``name_hint``."""
        return self.name_hint

    @property
    def ty(self) -> Type:
        """The var's type (``PrimType`` or ``PointerType``; TVM 0.27 ``Var.ty``, which tirx
        prints as ``T.handle().ty`` for a handle dtype argument)."""
        assert self.type_annotation is not None
        return self.type_annotation

    def __repr__(self) -> str:
        return self.name_hint if self.dtype == "int32" else f"{self.name_hint}: {self.dtype}"

    # identity hashing (PrimExpr's __eq__ builds an EQ node), as the C slot itself: Vars key
    # the dicts of every pass and of the code generator, and a Python-level __hash__ costs a frame
    __hash__ = object.__hash__


register_structural(Var, *VAR_HANDLERS)  # structural equality maps a Var to its counterpart


@node
class SizeVar(Var):
    """A variable known to be non-negative, used for shapes (mirrors ``tvm.tir.SizeVar``)."""

    __hash__ = object.__hash__


@node
class StringImm(PrimExpr):
    """A string constant, dtype ``handle`` (mirrors ``tvm.tir.StringImm``)."""

    value: str
    dtype: DataType = field(init=False)

    def __post_init__(self) -> None:
        _set(self, "dtype", _dtype("handle"))

    __hash__ = PrimExpr.__hash__


@node
class Cast(PrimExpr):
    """Type conversion of ``value`` to ``dtype`` (mirrors ``tvm.tir.Cast``).

    Raises:
        TypeError: when the lane counts of ``dtype`` and ``value`` differ.
    """

    dtype: DTypeField
    value: ExprField

    def __post_init__(self) -> None:
        t = _dtype(self.dtype)
        _set(self, "dtype", t)
        value = _as_expr(self.value)
        _set(self, "value", value)
        if t.lanes != value.dtype.lanes:
            raise TypeError(f"Cast: cannot cast {value.dtype} to {t}: lane counts differ")

    __hash__ = PrimExpr.__hash__


# ------------------------------------------------------------------------------- binary nodes
def _match_exact(node_name: str, a: Any, b: Any) -> tuple[PrimExpr, PrimExpr]:
    if not isinstance(a, PrimExpr) and isinstance(b, PrimExpr):
        a = _as_expr(a, b)
    a = _as_expr(a)
    b = _as_expr(b, a)
    if a.dtype != b.dtype:
        raise TypeError(f"{node_name}: operand dtypes differ: {a.dtype} vs {b.dtype} "
                        "(cast one side, or use the + - * ... operators, which promote)")
    return a, b


@node
class _Binary(PrimExpr):
    """Shared shape of two-operand nodes: ``a``, ``b`` of one dtype, derived ``dtype``."""

    a: ExprField
    b: ExprField
    dtype: DataType = field(init=False)

    def __post_init__(self) -> None:
        a, b = self.a, self.b
        if isinstance(a, PrimExpr) and isinstance(b, PrimExpr):  # the common case: nothing
            ta, tb = a.dtype, b.dtype  # to convert (every pass builds these by the thousand)
            if ta is tb or ta == tb:
                _set(self, "dtype", self._result_dtype(a))
                return
        a, b = _match_exact(type(self).__name__, a, b)
        _set(self, "a", a)
        _set(self, "b", b)
        _set(self, "dtype", self._result_dtype(a))

    def _result_dtype(self, a: PrimExpr) -> DataType:
        return a.dtype

    __hash__ = PrimExpr.__hash__


@node
class BinaryOpExpr(_Binary):
    """Base of binary arithmetic nodes; ``dtype`` is the operands' dtype (``tvm.tir.BinaryOpExpr``)."""

    def __post_init__(self) -> None:
        a, b = self.a, self.b
        if isinstance(a, PrimExpr) and isinstance(b, PrimExpr):  # _Binary's common case, with
            t = a.dtype  # its result dtype (the operands') inline: the most built nodes
            if t is b.dtype or t == b.dtype:
                _SETATTR(self, "dtype", t)
                return
        _Binary.__post_init__(self)

    __hash__ = PrimExpr.__hash__


def _binary(name: str, doc: str) -> type:
    cls = type(name, (BinaryOpExpr,), {"__doc__": doc, "__hash__": PrimExpr.__hash__,
                                        "__module__": __name__, "__qualname__": name})
    return node(cls)


if TYPE_CHECKING:  # the classes _binary makes, as type checkers see them
    class Add(BinaryOpExpr): ...
    class Sub(BinaryOpExpr): ...
    class Mul(BinaryOpExpr): ...
    class Div(BinaryOpExpr): ...
    class Mod(BinaryOpExpr): ...
    class FloorDiv(BinaryOpExpr): ...
    class FloorMod(BinaryOpExpr): ...
    class Min(BinaryOpExpr): ...
    class Max(BinaryOpExpr): ...
else:
    Add = _binary("Add", "``a + b`` (mirrors ``tvm.tir.Add``).")
    Sub = _binary("Sub", "``a - b`` (mirrors ``tvm.tir.Sub``).")
    Mul = _binary("Mul", "``a * b`` (mirrors ``tvm.tir.Mul``).")
    Div = _binary("Div", "``a / b``; truncating for integers (mirrors ``tvm.tir.Div``).")
    Mod = _binary("Mod", "``a % b`` truncating, sign of ``a`` (mirrors ``tvm.tir.Mod``).")
    FloorDiv = _binary("FloorDiv", "``floor(a / b)`` (mirrors ``tvm.tir.FloorDiv``).")
    FloorMod = _binary("FloorMod",
                       "``a - floor(a / b) * b``, sign of ``b`` (``tvm.tir.FloorMod``).")
    Min = _binary("Min", "``min(a, b)`` (mirrors ``tvm.tir.Min``).")
    Max = _binary("Max", "``max(a, b)`` (mirrors ``tvm.tir.Max``).")


@node
class CmpExpr(_Binary):
    """Base of comparisons; ``dtype`` is ``bool`` with the operands' lanes (``tvm.tir.CmpExpr``)."""

    def _result_dtype(self, a: PrimExpr) -> DataType:
        lanes = a.dtype.lanes
        return bool_ if lanes == 1 else bool_.with_lanes(lanes)

    __hash__ = PrimExpr.__hash__


def _cmp(name: str, doc: str, truth: Any = None) -> type:
    ns: dict[str, Any] = {"__doc__": doc, "__hash__": PrimExpr.__hash__, "__module__": __name__,
                          "__qualname__": name}
    if truth is not None:
        ns["__bool__"] = truth
    return node(type(name, (CmpExpr,), ns))


if TYPE_CHECKING:  # the classes _cmp makes, as type checkers see them
    class EQ(CmpExpr): ...
    class NE(CmpExpr): ...
    class LT(CmpExpr): ...
    class LE(CmpExpr): ...
    class GT(CmpExpr): ...
    class GE(CmpExpr): ...
else:
    EQ = _cmp("EQ", "``a == b`` (mirrors ``tvm.tir.EQ``). ``bool()`` of it compares the operands "
              "by identity, like TVM's ``EqualOp``, so expressions work as dict keys.",
              lambda self: self.a.same_as(self.b))
    NE = _cmp("NE", "``a != b`` (mirrors ``tvm.tir.NE``); ``bool()`` is ``not a.same_as(b)``.",
              lambda self: not self.a.same_as(self.b))
    LT = _cmp("LT", "``a < b`` (mirrors ``tvm.tir.LT``).")
    LE = _cmp("LE", "``a <= b`` (mirrors ``tvm.tir.LE``).")
    GT = _cmp("GT", "``a > b`` (mirrors ``tvm.tir.GT``).")
    GE = _cmp("GE", "``a >= b`` (mirrors ``tvm.tir.GE``).")


def _check_bool(name: str, e: PrimExpr) -> None:
    if not e.dtype.is_bool():
        raise TypeError(f"{name}: operand must be bool, got {e.dtype}")


@node
class _Logical(_Binary):
    def _result_dtype(self, a: PrimExpr) -> DataType:
        _check_bool(type(self).__name__, a)
        return a.dtype

    __hash__ = PrimExpr.__hash__


@node
class And(_Logical):
    """Logical ``a && b`` on bool operands (mirrors ``tvm.tir.And``).

    Raises:
        TypeError: when an operand is not bool.
    """

    __hash__ = PrimExpr.__hash__


@node
class Or(_Logical):
    """Logical ``a || b`` on bool operands (mirrors ``tvm.tir.Or``).

    Raises:
        TypeError: when an operand is not bool.
    """

    __hash__ = PrimExpr.__hash__


@node
class Not(PrimExpr):
    """Logical negation of a bool (mirrors ``tvm.tir.Not``).

    Raises:
        TypeError: when ``a`` is not bool.
    """

    a: ExprField
    dtype: DataType = field(init=False)

    def __post_init__(self) -> None:
        a = _as_expr(self.a)
        _check_bool("Not", a)
        _set(self, "a", a)
        _set(self, "dtype", a.dtype)

    __hash__ = PrimExpr.__hash__


@node
class Select(PrimExpr):
    """``condition ? true_value : false_value``, both sides evaluated (``tvm.tir.Select``).

    Raises:
        TypeError: when the branches' dtypes differ or the condition is not bool.
    """

    condition: ExprField
    true_value: ExprField
    false_value: ExprField
    dtype: DataType = field(init=False)

    def __post_init__(self) -> None:
        cond = _as_expr(self.condition)
        _check_bool("Select condition", cond)
        t, f = _match_exact("Select", self.true_value, self.false_value)
        _set(self, "condition", cond)
        _set(self, "true_value", t)
        _set(self, "false_value", f)
        _set(self, "dtype", t.dtype)

    __hash__ = PrimExpr.__hash__


# ----------------------------------------------------------------------------- memory access
def _index_list(indices: Any) -> tuple[PrimExpr, ...]:
    if isinstance(indices, (PrimExpr, int)):
        indices = (indices,)
    return tuple(_as_expr(i) for i in indices)


@node
class BufferLoad(PrimExpr):
    """Read ``buffer[indices]`` (mirrors ``tvm.tir.BufferLoad``).

    ``dtype`` is the buffer's dtype, with the lanes of the last index when it is a vector
    (a ``Ramp``): loading ``A[Ramp(0, 1, 4)]`` from a float32 buffer gives ``float32x4``.
    ``predicate`` (bool vector or ``None``) masks lanes.

    Raises:
        ValueError: when the number of indices differs from the buffer's rank (as TVM).
    """

    buffer: Any  # a tirkit.tir.buffer.Buffer (buffer.py imports this module: no import here)
    indices: Coerced[tuple[PrimExpr, ...], Iterable[ExprLike] | ExprLike]
    predicate: PrimExpr | None = None
    dtype: DataType = field(init=False)

    def __post_init__(self) -> None:
        indices = _index_list(self.indices)
        if len(indices) != len(self.buffer.shape) and self.buffer.shape:
            raise ValueError(f"buffer {self.buffer.name!r} has {len(self.buffer.shape)} "
                             f"dimension(s) but {len(indices)} index(es) are given")
        _set(self, "indices", indices)
        lanes = indices[-1].dtype.lanes if indices else 1
        _set(self, "dtype", self.buffer.dtype.with_lanes(self.buffer.dtype.lanes * lanes))

    __hash__ = PrimExpr.__hash__


@node
class ProducerLoad(PrimExpr):
    """Read a TE tensor (``DataProducer``) at ``indices`` (mirrors ``tvm.tir.ProducerLoad``)."""

    producer: Any
    indices: Coerced[tuple[PrimExpr, ...], Iterable[ExprLike] | ExprLike]
    dtype: DataType = field(init=False)

    def __post_init__(self) -> None:
        _set(self, "indices", _index_list(self.indices))
        _set(self, "dtype", _dtype(self.producer.dtype))

    __hash__ = PrimExpr.__hash__


# ------------------------------------------------------------------------------------ vectors
def _vector_lanes(what: str, lanes: Any) -> tuple[Any, int]:
    """``(lanes field, lanes of the dtype)`` of a Ramp/Broadcast: an int >= 2, or for a
    scalable vector ``vscale() * k`` (either operand order; TVM's ExtractVscaleFactor) kept as
    ``Mul(vscale(), k)`` with dtype lanes ``-k``."""
    if isinstance(lanes, int) and lanes < -1:  # a scalable dtype's lanes field: -k
        lanes = -lanes * Call(DataType("int32"), "tir.vscale", ())
    if isinstance(lanes, PrimExpr) and not isinstance(lanes, IntImm):
        factor = scalable_lanes_factor(lanes)
        if factor is None or factor < 2:
            raise ValueError(f"{what}: scalable lanes must be T.vscale() * k with a constant "
                             f"k >= 2, got {type(lanes).__name__}")
        vscale = Call(DataType("int32"), "tir.vscale", ())
        return Mul(vscale, IntImm(vscale.dtype, factor)), -factor
    n = int(lanes)
    if n < 2:
        raise ValueError(f"{what}: lanes must be >= 2, got {n}")
    return n, n


def scalable_lanes_factor(expr: Any) -> int | None:
    """``k`` when ``expr`` is ``vscale() * k`` or ``k * vscale()`` with a constant ``k`` (the
    lanes of a scalable vector; TVM's ``arith::ExtractVscaleFactor``), else None."""
    if not isinstance(expr, Mul):
        return None
    for call, k in ((expr.a, expr.b), (expr.b, expr.a)):
        if isinstance(call, Call) and getattr(call.op, "name", None) == "tir.vscale" \
                and isinstance(k, IntImm):
            return int(k.value)
    return None


@node
class Ramp(PrimExpr):
    """The vector ``[base, base + stride, ..., base + (lanes-1)*stride]`` (``tvm.tir.Ramp``).

    ``lanes`` is an int, or ``T.vscale() * k`` for a scalable vector (dtype ``...xvscalexk``,
    AArch64 SVE; kept as that expression, as TVM does).

    Raises:
        TypeError: when base/stride are not scalars of one dtype; ValueError: ``lanes < 2``,
        or scalable lanes that are not ``vscale() * k``.
    """

    base: ExprField
    stride: ExprField
    lanes: int | PrimExpr  # type: ignore[assignment]
    dtype: DataType = field(init=False)

    def __post_init__(self) -> None:
        base, stride = _match_exact("Ramp", self.base, self.stride)
        if base.dtype.lanes != 1:
            raise TypeError(f"Ramp: base must be a scalar, got {base.dtype}")
        lanes, dtype_lanes = _vector_lanes("Ramp", self.lanes)
        _set(self, "base", base)
        _set(self, "stride", stride)
        _set(self, "lanes", lanes)
        _set(self, "dtype", base.dtype.with_lanes(dtype_lanes))

    __hash__ = PrimExpr.__hash__


@node
class Broadcast(PrimExpr):
    """``value`` repeated ``lanes`` times (mirrors ``tvm.tir.Broadcast``); ``lanes`` as in
    :class:`Ramp` (an int, or ``T.vscale() * k`` for a scalable vector).

    Raises:
        TypeError: when ``value`` is a vector; ValueError: ``lanes < 2``, or scalable lanes
        that are not ``vscale() * k``.
    """

    value: ExprField
    lanes: int | PrimExpr  # type: ignore[assignment]
    dtype: DataType = field(init=False)

    def __post_init__(self) -> None:
        value = _as_expr(self.value)
        if value.dtype.lanes != 1:
            raise TypeError(f"Broadcast: value must be a scalar, got {value.dtype}")
        lanes, dtype_lanes = _vector_lanes("Broadcast", self.lanes)
        _set(self, "value", value)
        _set(self, "lanes", lanes)
        _set(self, "dtype", value.dtype.with_lanes(dtype_lanes))

    __hash__ = PrimExpr.__hash__


@node
class Shuffle(PrimExpr):
    """Concatenate ``vectors`` and pick lanes by constant ``indices`` (``tvm.tir.Shuffle``).

    Raises:
        TypeError: when the vectors' element types differ; ValueError: index out of range.
    """

    vectors: ExprsField
    indices: ExprsField
    dtype: DataType = field(init=False)

    def __post_init__(self) -> None:
        vectors = tuple(_as_expr(v) for v in self.vectors)
        indices = tuple(_as_expr(i) for i in self.indices)
        if not vectors:
            raise ValueError("Shuffle: needs at least one vector")
        elem = vectors[0].dtype.element_of()
        if any(v.dtype.element_of() != elem for v in vectors):
            raise TypeError("Shuffle: vectors must share an element type, got "
                            + ", ".join(str(v.dtype) for v in vectors))
        total = sum(v.dtype.lanes for v in vectors)
        for i in indices:
            if isinstance(i, IntImm) and not 0 <= i.value < total:
                raise ValueError(f"Shuffle: index {i.value} out of range for {total} lanes")
        _set(self, "vectors", vectors)
        _set(self, "indices", indices)
        _set(self, "dtype", elem.with_lanes(len(indices)))

    __hash__ = PrimExpr.__hash__


# --------------------------------------------------------------------------- binding and calls
@node
class Let(PrimExpr):
    """``let var = value in body`` as an expression (mirrors ``tvm.tir.Let``).

    Raises:
        TypeError: when ``value``'s dtype differs from ``var``'s.
    """

    var: Var = def_field()
    value: ExprField
    body: ExprField
    dtype: DataType = field(init=False)

    def __post_init__(self) -> None:
        value = _as_expr(self.value, self.var)
        if value.dtype != self.var.dtype:
            raise TypeError(f"Let: value dtype {value.dtype} differs from var "
                            f"{self.var.name_hint!r} dtype {self.var.dtype}")
        body = _as_expr(self.body)
        _set(self, "value", value)
        _set(self, "body", body)
        _set(self, "dtype", body.dtype)

    __hash__ = PrimExpr.__hash__


#: tirkit.tir.builtin (registering the ops a Call may name by string) once imported
_BUILTIN: list[Any] = []


@node
class Call(PrimExpr):
    """Call of an ``Op`` or a ``GlobalVar`` (mirrors ``tvm.tir.Call``): ``Call(dtype, op, args)``.

    ``op`` may be an op name string (``"tir.exp"``), looked up in the op registry.

    Raises:
        KeyError: for an unregistered op name; TypeError: for a wrong number of arguments
        or an ``op`` that is neither a name, an ``Op`` nor a ``GlobalVar``.
    """

    dtype: DTypeField
    op: Coerced[Op | GlobalVar, str | Op | GlobalVar]
    args: Coerced[tuple[PrimExpr, ...], Iterable[Any]] = coerced_field(default=())

    def __post_init__(self) -> None:
        if type(self.dtype) is not DataType:
            _set(self, "dtype", _dtype(self.dtype))
        op = self.op
        if isinstance(op, str):
            if not _BUILTIN:  # the import statement once: it costs a call into importlib
                from . import builtin  # pylint: disable=import-outside-toplevel

                _BUILTIN.append(builtin)
            op = Op.get(op)
            _set(self, "op", op)
        elif not isinstance(op, (Op, GlobalVar)):
            raise TypeError(f"the op of a Call must be an op name, an Op or a GlobalVar, got "
                            f"{type(op).__name__}")
        args = self.args
        if type(args) is not tuple or not all(isinstance(a, PrimExpr) for a in args):
            args = tuple(a.var if isinstance(a, IterVar) else  # TVM passes an IterVar's var
                         a if isinstance(a, (PrimExpr, Node)) else _as_expr(a) for a in args)
        if isinstance(op, Op) and op.num_inputs >= 0 and len(args) != op.num_inputs:
            raise TypeError(f"{op.name} takes {op.num_inputs} argument(s), got {len(args)}")
        _set(self, "args", args)

    __hash__ = PrimExpr.__hash__


@node
class CommReducer(Node):
    """A commutative reducer ``result(lhs, rhs)`` with ``identity_element`` (``tvm.tir.CommReducer``).

    ``lhs``/``rhs`` are the tuple of accumulator and operand vars; ``result`` the combined
    expressions; one entry per reduced value (argmax reduces two).
    """

    lhs: TupleOf[Var] = def_field()
    rhs: TupleOf[Var] = def_field()
    result: TupleOf[PrimExpr] = coerced_field(default=())
    identity_element: TupleOf[PrimExpr] = coerced_field(default=())

    def __post_init__(self) -> None:
        for name in ("lhs", "rhs", "result", "identity_element"):
            _set(self, name, tuple(getattr(self, name)))

    def __call__(self, lhs: Sequence[PrimExpr], rhs: Sequence[PrimExpr]) -> tuple[PrimExpr, ...]:
        """Combine values (substitutes ``lhs``/``rhs`` into ``result``)."""
        substitute = _layers.get("tir.stmt_functor").substitute
        vmap = dict(zip(self.lhs, lhs)) | dict(zip(self.rhs, rhs))
        return tuple(substitute(r, vmap) for r in self.result)


@node
class Reduce(PrimExpr):
    """A reduction of ``source`` over ``axis`` with ``combiner`` (mirrors ``tvm.tir.Reduce``)."""

    combiner: CommReducer
    source: TupleOf[PrimExpr]
    axis: TupleOf[IterVar] = def_field()
    condition: PrimExpr = field(default_factory=lambda: IntImm("bool", 1))
    value_index: int = 0
    init: TupleOf[PrimExpr] = coerced_field(default=())
    dtype: DataType = field(init=False)

    def __post_init__(self) -> None:
        _set(self, "source", tuple(self.source))
        _set(self, "axis", tuple(self.axis))
        _set(self, "init", tuple(self.init))
        _set(self, "dtype", self.source[self.value_index].dtype)

    __hash__ = PrimExpr.__hash__


class IterVarType(IntEnum):
    """Kinds of iteration variables (mirrors ``tvm.tir.IterVar`` constants)."""

    DataPar = 0
    ThreadIndex = 1
    CommReduce = 2
    Ordered = 3
    DimInfo = 4
    Unrolled = 5
    Vectorized = 6
    Parallelized = 7
    Tensorized = 8


@node
class IterVar(Node):
    """An iteration variable with domain and kind (mirrors ``tvm.tir.IterVar``).

    ``IterVar(dom, var, iter_type, thread_tag="")``: ``dom`` a ``Range``, a ``(begin, end)`` pair or
    ``None``; ``var`` a ``Var`` or a name (an int32 var is then made, int64 when the domain is).
    Block iter vars use ``DataPar`` (spatial), ``CommReduce`` (reduce), ``Ordered`` (scan) and
    ``DimInfo`` (opaque).
    """

    dom: Coerced[Range | None, Range | tuple[Any, Any] | list[Any] | None]
    var: Coerced[Var, Var | str] = def_field()
    iter_type: Coerced[IterVarType, IterVarType | int] = coerced_field(default=IterVarType.DataPar)
    thread_tag: str = ""

    def __post_init__(self) -> None:
        dom = self.dom
        if isinstance(dom, (tuple, list)):
            dom = Range(dom[0], dom[1])
            _set(self, "dom", dom)
        if isinstance(self.var, str):
            t = dom.extent.dtype if dom is not None else _dtype("int32")
            _set(self, "var", Var(self.var, t))
        _set(self, "iter_type", IterVarType(self.iter_type))

    def __hash__(self) -> int:
        return object.__hash__(self)
