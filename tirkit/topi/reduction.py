"""Reductions over axes (mirrors ``tvm.topi.sum`` / ``max`` / ``min`` / ``prod``; ``mean`` as
Relax legalizes it: the sum divided by the element count).

``axis`` is an int, a sequence of ints or None (all axes); negative axes count from the end;
``keepdims`` keeps reduced axes as 1.
"""
from __future__ import annotations

from typing import Any, Callable

from tirkit import te, tir

__all__ = ["sum", "max", "min", "prod", "mean", "argmax", "argmin", "normalize_axes"]


def normalize_axes(axis: Any, ndim: int) -> list[int]:
    """``axis`` as a sorted list of non-negative axes.

    Raises:
        ValueError: for an axis out of range.
    """
    axes = list(range(ndim)) if axis is None else (
        list(axis) if isinstance(axis, (list, tuple)) else [axis])
    out = []
    for a in axes:
        if not -ndim <= a < ndim:
            raise ValueError(f"axis {a} is out of range for a tensor of rank {ndim}")
        out.append(a % ndim)
    return sorted(set(out))


def _reduce(reducer: Any, name: str) -> Callable[..., te.Tensor]:
    def op(data: te.Tensor, axis: Any = None, keepdims: bool = False) -> te.Tensor:
        axes = normalize_axes(axis, data.ndim)
        raxes = [te.reduce_axis((0, data.shape[a]), name=f"k{a}") for a in axes]
        shape = [tir.const(1, d.dtype) if k in axes else d for k, d in enumerate(data.shape)
                 if keepdims or k not in axes]

        def body(*idx: Any) -> Any:
            it, full = iter(idx), []
            for k in range(data.ndim):
                if k in axes:
                    full.append(raxes[axes.index(k)].var)
                    if keepdims:
                        next(it)
                else:
                    full.append(next(it))
            return reducer(data[full], axis=raxes)
        return te.compute(shape, body, name=f"{data.name}_red" if name == "sum" else
                          f"{data.name}_{name}", tag="comm_reduce")
    op.__name__ = name
    op.__doc__ = f"``{name}`` of ``data`` over ``axis`` (``topi.{name}``)."
    return op


sum = _reduce(te.sum, "sum")  # pylint: disable=redefined-builtin
max = _reduce(te.max, "max")  # pylint: disable=redefined-builtin
min = _reduce(te.min, "min")  # pylint: disable=redefined-builtin
prod = _reduce(te.comm_reducer(lambda x, y: x * y, lambda t: tir.const(1, t), "prod"), "prod")


def mean(data: te.Tensor, axis: Any = None, keepdims: bool = False) -> te.Tensor:
    """The mean over ``axis`` (Relax's ``mean`` legalization: ``sum / count``)."""
    total = sum(data, axis, keepdims)
    count: Any = 1  # an int, then a PrimExpr
    for a in normalize_axes(axis, data.ndim):
        count = count * data.shape[a]
    denom = tir.Cast(data.dtype, count)
    return te.compute(total.shape, lambda *i: total[i] / denom, name="T_divide", tag="elemwise")


def _arg_reduce(reducer: Any, name: str) -> Callable[..., te.Tensor]:
    def op(data: te.Tensor, axis: Any = None, keepdims: bool = False) -> te.Tensor:
        axes = normalize_axes(axis, data.ndim)
        raxes = [te.reduce_axis((0, data.shape[a]), name=f"k{a}") for a in axes]
        shape = [tir.const(1, d.dtype) if k in axes else d for k, d in enumerate(data.shape)
                 if keepdims or k not in axes]

        def body(*idx: Any) -> Any:
            it, full = iter(idx), []
            for k in range(data.ndim):
                if k in axes:
                    full.append(raxes[axes.index(k)].var)
                    if keepdims:
                        next(it)
                else:
                    full.append(next(it))
            flat: Any = tir.const(0, "int32")  # row-major index over the reduced axes
            for a, r in zip(axes, raxes):
                flat = flat * tir.Cast("int32", data.shape[a]) + tir.Cast("int32", r.var)
            return reducer((flat, data[full]), axis=raxes)
        index, _ = te.compute(shape, body, name=f"{data.name}_red_temp", tag="comm_reduce_idx")
        return index
    op.__name__ = name
    op.__doc__ = (f"``{name}`` of ``data`` over ``axis`` (``topi.{name}``): int32 indices (over "
                  "several axes, the row-major index within them); ties give the first index.")
    return op


argmax = _arg_reduce(te.argmax, "argmax")
argmin = _arg_reduce(te.argmin, "argmin")
