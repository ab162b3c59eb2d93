"""Reductions of the tensor-expression language (mirrors ``tvm.te.reduce_axis``,
``tvm.te.comm_reducer``, ``tvm.te.sum``/``max``/``min``).

``te.sum(A[i, k], axis=k)`` is a ``tir.Reduce`` over the reduce IterVar ``k``; used as the body
of ``te.compute`` it makes a reduction whose block gets an init statement (the reducer's
identity) and an update ``B[i] = B[i] + A[i, k]``.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from tirkit import tir
from tirkit.ir.expr import PrimExpr, Range

__all__ = ["reduce_axis", "comm_reducer", "sum", "max", "min"]


def reduce_axis(dom: Any, name: str = "rv", thread_tag: str = "") -> tir.IterVar:
    """A reduction axis over ``dom`` (``(begin, end)`` or an extent; ``te.reduce_axis``)."""
    if isinstance(dom, Range):
        rng = dom
    else:
        begin, end = (0, dom) if not isinstance(dom, (list, tuple)) else dom
        end = tir.convert(end) if isinstance(end, int) else end
        begin = tir.const(begin, end.dtype) if isinstance(begin, int) else begin
        rng = Range(begin, end)
    return tir.IterVar(rng, tir.Var(name, rng.extent.dtype), tir.IterVarType.CommReduce,
                       thread_tag)


class Reducer:
    """What :func:`comm_reducer` returns: call it as ``reducer(expr, axis, where=None,
    init=None)`` to build a ``tir.Reduce``."""

    def __init__(self, fcombine: Callable[..., Any], fidentity: Callable[..., Any],
                 name: str) -> None:
        self.fcombine, self.fidentity, self.__name__ = fcombine, fidentity, name

    def _combiner(self, dtypes: Sequence[Any]) -> tir.CommReducer:
        lhs = [tir.Var("x" if len(dtypes) == 1 else f"x{k}", d) for k, d in enumerate(dtypes)]
        rhs = [tir.Var("y" if len(dtypes) == 1 else f"y{k}", d) for k, d in enumerate(dtypes)]
        result = self.fcombine(*lhs, *rhs) if len(dtypes) > 1 else self.fcombine(lhs[0], rhs[0])
        identity = self.fidentity(*[str(d) for d in dtypes])
        result = result if isinstance(result, (list, tuple)) else [result]
        identity = identity if isinstance(identity, (list, tuple)) else [identity]
        return tir.CommReducer(lhs, rhs, [tir.convert(r) for r in result],
                               [tir.convert(i, d) for i, d in zip(identity, dtypes)])

    def __call__(self, expr: Any, axis: Any, where: Any = None, init: Any = None) -> Any:
        exprs = list(expr) if isinstance(expr, (list, tuple)) else [expr]
        exprs = [tir.convert(e) for e in exprs]
        axes = list(axis) if isinstance(axis, (list, tuple)) else [axis]
        combiner = self._combiner([e.dtype for e in exprs])
        cond = tir.const(True, "bool") if where is None else where
        inits = () if init is None else tuple(init if isinstance(init, (list, tuple))
                                              else [init])
        outs = [tir.Reduce(combiner, exprs, axes, cond, k, inits) for k in range(len(exprs))]
        return outs[0] if len(outs) == 1 else outs


def comm_reducer(fcombine: Callable[..., Any], fidentity: Callable[..., Any],
                 name: str = "reduce") -> Reducer:
    """A commutative reducer from a combining function and an identity (``te.comm_reducer``);
    a tuple-valued ``fcombine`` reduces several values at once (argmax)."""
    return Reducer(fcombine, fidentity, name)


sum = comm_reducer(lambda x, y: x + y, lambda t: tir.const(0, t), name="sum")  # pylint: disable=redefined-builtin
max = comm_reducer(lambda x, y: tir.max(x, y), tir.min_value, name="max")  # pylint: disable=redefined-builtin
min = comm_reducer(lambda x, y: tir.min(x, y), tir.max_value, name="min")  # pylint: disable=redefined-builtin


