"""Registration of Relax operators (mirrors ``TVM_REGISTER_OP("relax.add")`` with its
``FInferStructInfo`` and ``FLegalize`` attributes).

Each operator is an interned :class:`tirkit.ir.op.Op` named ``relax.<name>``; its attributes hold
the struct-info inference function and, once ``tirkit.relax.transform.legalize_ops`` is
imported, the legalization (a TE/topi implementation). :func:`make_call` builds a normalized
call: its struct info is inferred right away, so a shape error surfaces where the op is used.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from tirkit import tir
from tirkit.arith import Analyzer
from tirkit.ir.dtype import dtype as _dtype
from tirkit.ir.expr import PrimExpr
from tirkit.ir.op import CallEffectKind, Op, register_op

from ..expr import Call, Expr
from ..struct_info import StructInfo, TensorStructInfo

InferFn = Callable[[Call], StructInfo]


class RelaxOpError(ValueError):
    """A Relax operator applied to arguments it does not accept (wrong rank, dtype, shape)."""


def register(name: str, infer: InferFn, doc: str = "") -> Op:
    """Register ``relax.<name>`` with its struct-info inference (``FInferStructInfo``)."""
    op = register_op(f"relax.{name}", effect=CallEffectKind.PURE, doc=doc)
    op.attrs["FInferStructInfo"] = infer
    return op


def get_op(name: str) -> Op:
    """The registered Relax op ``relax.<name>`` (``tvm.ir.Op.get``)."""
    return Op.get(f"relax.{name}")


def infer_struct_info(call: Call) -> StructInfo:
    """The struct info of ``call`` by its op's ``FInferStructInfo``.

    Raises:
        RelaxOpError: when the arguments are not accepted.
    """
    infer = call.op.attrs.get("FInferStructInfo") if isinstance(call.op, Op) else None
    if infer is None:
        raise RelaxOpError(f"operator {getattr(call.op, 'name', call.op)!r} has no struct "
                           "info inference")
    return infer(call)


def make_call(name: str, args: Sequence[Expr], attrs: dict[str, Any] | None = None,
              sinfo_args: Sequence[StructInfo] = ()) -> Call:
    """A normalized call of ``relax.<name>`` (its struct info inferred when the arguments'
    struct info is known)."""
    call = Call(get_op(name), tuple(args), attrs or {}, tuple(sinfo_args))
    if all(a.struct_info_ is not None for a in call.args):
        object.__setattr__(call, "struct_info_", infer_struct_info(call))
    return call


# ------------------------------------------------------------------------- shared helpers
_ANALYZER = Analyzer()


def tensor_arg(call: Call, index: int, what: str = "") -> TensorStructInfo:
    """The tensor struct info of argument ``index`` of ``call``.

    Raises:
        RelaxOpError: when that argument is not a tensor.
    """
    sinfo = call.args[index].struct_info_
    if not isinstance(sinfo, TensorStructInfo):
        raise RelaxOpError(f"{call.op.name}: argument {what or index} must be a tensor, got "
                           f"{type(sinfo).__name__}")
    return sinfo


def same_dim(a: PrimExpr, b: PrimExpr) -> bool:
    """Whether two dims are provably equal."""
    if isinstance(a, tir.IntImm) and isinstance(b, tir.IntImm):
        return a.value == b.value
    return a is b or _ANALYZER.can_prove_equal(a, b)


def is_one(dim: PrimExpr) -> bool:
    """Whether ``dim`` is the constant 1."""
    return isinstance(dim, tir.IntImm) and dim.value == 1


def broadcast_shapes(op: str, lhs: Sequence[PrimExpr],
                     rhs: Sequence[PrimExpr]) -> tuple[PrimExpr, ...]:
    """NumPy broadcasting of two shapes with symbolic dims (TVM's ``InferBinaryBroadcastShape``).

    Raises:
        RelaxOpError: when two dims differ and neither is 1.
    """
    out: list[PrimExpr] = []
    for k in range(1, max(len(lhs), len(rhs)) + 1):
        a = lhs[-k] if k <= len(lhs) else None
        b = rhs[-k] if k <= len(rhs) else None
        if a is None or (b is not None and is_one(a)):
            assert b is not None  # (k is within lhs or within rhs)
            out.append(b)
        elif b is None or is_one(b) or same_dim(a, b):
            out.append(a)
        else:
            raise RelaxOpError(f"{op}: shapes {tuple(lhs)} and {tuple(rhs)} do not broadcast "
                               f"(dimension -{k}: {a} vs {b})")
    return tuple(reversed(out))


def normalize_axis(op: str, axis: int, ndim: int) -> int:
    """``axis`` in ``[0, ndim)`` (negative counts from the end).

    Raises:
        RelaxOpError: when out of range or not an integer.
    """
    if isinstance(axis, bool) or not isinstance(axis, int):
        raise RelaxOpError(f"{op}: axis must be an integer, got {axis!r}")
    if not -ndim <= axis < ndim:
        raise RelaxOpError(f"{op}: axis {axis} is out of range for a tensor of rank {ndim}")
    return axis % ndim


def unify_dtype(op: str, a: TensorStructInfo, b: TensorStructInfo) -> Any:
    """The common dtype of two tensors (void when one is unknown).

    Raises:
        RelaxOpError: when both are known and differ.
    """
    if a.dtype.is_void():
        return b.dtype
    if b.dtype.is_void() or a.dtype == b.dtype:
        return a.dtype
    raise RelaxOpError(f"{op}: dtypes differ: {a.dtype} and {b.dtype}")


def dim_of(value: Any) -> PrimExpr:
    """A Python int or PrimExpr as an int64 dim."""
    if isinstance(value, int):
        return tir.IntImm("int64", value)
    return value


def as_dtype(value: Any) -> Any:
    """A dtype string or DataType as a DataType."""
    return _dtype(value)
