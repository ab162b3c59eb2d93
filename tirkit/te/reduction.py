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

__all__ = ["reduce_axis", "comm_reducer", "sum", "max", "min", "argmax", "argmin"]


def reduce_axis(dom: Any, name: str = "rv", thread_tag: str = "") -> tir.IterVar:
    """A reduction axis over ``dom`` (``(begin, end)`` or an extent; ``te.reduce_axis``).

    Raises:
        TypeError: when a bound is not an int or an integer PrimExpr.
    """
    if isinstance(dom, Range):
        rng = dom
    else:
        begin, end = (0, dom) if not isinstance(dom, (list, tuple)) else dom
        for bound in (begin, end):
            if isinstance(bound, bool) or not (isinstance(bound, int) or (
                    isinstance(bound, PrimExpr) and (bound.dtype.is_int()
                                                     or bound.dtype.is_uint()))):
                raise TypeError(f"te.reduce_axis: the bounds must be ints or integer PrimExprs, "
                                f"got {bound!r} in {dom!r}")
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

    def _combiner(self, dtypes: Sequence[Any], multi: bool) -> tir.CommReducer:
        # TVM names the combiner's vars after fcombine's parameters: ``x``/``y``, and for a
        # tuple reduction ``x_0, x_1``/``y_0, y_1``; fcombine then receives the lists.
        code = getattr(self.fcombine, "__code__", None)
        lname, rname = code.co_varnames[:2] if code is not None and code.co_argcount >= 2 \
            else ("x", "y")
        if multi:
            lhs = [tir.Var(f"{lname}_{k}", d) for k, d in enumerate(dtypes)]
            rhs = [tir.Var(f"{rname}_{k}", d) for k, d in enumerate(dtypes)]
            result = self.fcombine(lhs, rhs)
        else:
            lhs, rhs = [tir.Var(lname, dtypes[0])], [tir.Var(rname, dtypes[0])]
            result = self.fcombine(lhs[0], rhs[0])
        identity = self.fidentity(*[str(d) for d in dtypes])
        result = result if isinstance(result, (list, tuple)) else [result]
        identity = identity if isinstance(identity, (list, tuple)) else [identity]
        return tir.CommReducer(lhs, rhs, [tir.convert(r) for r in result],
                               [tir.convert(i, d) for i, d in zip(identity, dtypes)])

    def __call__(self, expr: Any, axis: Any, where: Any = None, init: Any = None) -> Any:
        multi = isinstance(expr, (list, tuple))
        exprs = [tir.convert(e.var if isinstance(e, tir.IterVar) else e)
                 for e in (expr if multi else [expr])]
        axes = list(axis) if isinstance(axis, (list, tuple)) else [axis]
        for ax in axes:
            if not isinstance(ax, tir.IterVar) or ax.iter_type != tir.IterVarType.CommReduce:
                raise TypeError(f"te.{self.__name__}: axis must be reduce axes "
                                f"(te.reduce_axis), got {ax!r}")
        combiner = self._combiner([e.dtype for e in exprs], multi)
        cond = tir.const(True, "bool") if where is None else where
        inits = () if init is None else tuple(init if isinstance(init, (list, tuple))
                                              else [init])
        outs = [tir.Reduce(combiner, exprs, axes, cond, k, inits) for k in range(len(exprs))]
        return outs[0] if len(outs) == 1 else outs


def comm_reducer(fcombine: Callable[..., Any], fidentity: Callable[..., Any],
                 name: str = "reduce") -> Reducer:
    """A commutative reducer from a combining function and an identity (``te.comm_reducer``);
    for a tuple reduction ``reducer((a, b), axis=k)`` ``fcombine(x, y)`` receives two lists and
    returns a tuple, ``fidentity(dtype0, dtype1)`` a tuple (argmax, as in TVM's tests)."""
    return Reducer(fcombine, fidentity, name)


def _arg_reducer(name: str, better: Callable[[Any, Any], Any], worst: Callable[[str], Any]
                 ) -> Reducer:
    def fcombine(x: Any, y: Any) -> tuple[Any, Any]:
        # ties keep the first index (the smaller one), as NumPy's argmax/argmin do
        take_x = tir.Or(better(x[1], y[1]), tir.And(tir.EQ(x[1], y[1]), tir.LT(x[0], y[0])))
        return tir.Select(take_x, x[0], y[0]), tir.Select(take_x, x[1], y[1])

    def fidentity(t0: str, t1: str) -> tuple[Any, Any]:
        return tir.const(-1, t0), worst(t1)

    return Reducer(fcombine, fidentity, name)


argmax = _arg_reducer("argmax", tir.GT, tir.min_value)
argmax.__doc__ = ("``argmax((index, value), axis=k)``: a tuple reducer giving the (first) index "
                  "of the largest value and that value (tirkit's; TVM writes it with "
                  "``te.comm_reducer`` as its tests do).")
argmin = _arg_reducer("argmin", tir.LT, tir.max_value)
argmin.__doc__ = "``argmin((index, value), axis=k)``: as :data:`argmax`, for the smallest value."


sum = comm_reducer(lambda x, y: x + y, lambda t: tir.const(0, t), name="sum")  # pylint: disable=redefined-builtin
max = comm_reducer(lambda x, y: tir.max(x, y), tir.min_value, name="max")  # pylint: disable=redefined-builtin
min = comm_reducer(lambda x, y: tir.min(x, y), tir.max_value, name="min")  # pylint: disable=redefined-builtin


