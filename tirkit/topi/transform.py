"""Layout and indexing operators (mirrors ``tvm.topi`` ``transpose``, ``reshape``,
``concatenate``, ``take``, ``matmul``)."""
from __future__ import annotations

from typing import Any, Sequence

from tirkit import te, tir
from tirkit.arith import Analyzer
from tirkit.te.tensor import as_shape

from .broadcast import broadcast_shape

__all__ = ["transpose", "reshape", "concatenate", "take", "matmul"]


def transpose(a: te.Tensor, axes: Sequence[int] | None = None) -> te.Tensor:
    """``a`` with its axes permuted (reversed when ``axes`` is None; ``topi.transpose``).

    Raises:
        ValueError: when ``axes`` is not a permutation of the axes.
    """
    perm = list(range(a.ndim))[::-1] if axes is None else [x % a.ndim for x in axes]
    if sorted(perm) != list(range(a.ndim)):
        raise ValueError(f"transpose: axes {axes} are not a permutation of 0..{a.ndim - 1}")
    shape = [a.shape[p] for p in perm]

    def body(*idx: Any) -> Any:
        src = [None] * a.ndim
        for out_k, p in enumerate(perm):
            src[p] = idx[out_k]
        return a[src]
    return te.compute(shape, body, name="T_transpose", tag="injective")


def _flat_index(idx: Sequence[Any], shape: Sequence[Any]) -> Any:
    flat = tir.const(0, shape[0].dtype if shape else "int32")
    for i, d in zip(idx, shape):
        flat = flat * d + i
    return flat


def _unflatten(flat: Any, shape: Sequence[Any]) -> list[Any]:
    out = []
    for d in reversed(shape):
        out.append(tir.floormod(flat, d))
        flat = tir.floordiv(flat, d)
    return out[::-1]


def reshape(a: te.Tensor, newshape: Sequence[Any]) -> te.Tensor:
    """``a`` with ``newshape`` (row-major; one dim may be -1; ``topi.reshape``).

    Raises:
        ValueError: when the element counts differ or several dims are -1.
    """
    dims = list(newshape)
    if sum(1 for d in dims if isinstance(d, int) and d == -1) > 1:
        raise ValueError("reshape: at most one dimension may be -1")
    total: Any = 1  # an int, then a PrimExpr
    for d in a.shape:
        total = total * d
    if any(isinstance(d, int) and d == -1 for d in dims):
        rest = 1
        for d in dims:
            if not (isinstance(d, int) and d == -1):
                rest = rest * d
        dims[dims.index(-1)] = Analyzer().simplify(tir.floordiv(total, rest))
    out = as_shape(dims)
    known = [d.value for d in out if isinstance(d, tir.IntImm)]
    src_known = [d.value for d in a.shape if isinstance(d, tir.IntImm)]
    if len(known) == len(out) and len(src_known) == a.ndim and \
            _prod(known) != _prod(src_known):
        raise ValueError(f"reshape: cannot reshape {[int(x) for x in src_known]} to {known}")
    return te.compute(out, lambda *idx: a[_unflatten(_flat_index(idx, out), a.shape)],
                      name="T_reshape", tag="injective")


def _prod(values: Sequence[int]) -> int:
    p = 1
    for v in values:
        p *= v
    return p


def concatenate(a_tuple: Sequence[te.Tensor], axis: int = 0) -> te.Tensor:
    """The tensors joined along ``axis`` (``topi.concatenate``)."""
    tensors = list(a_tuple)
    axis = axis % tensors[0].ndim
    offsets, total = [], tir.const(0, tensors[0].shape[axis].dtype)
    for t in tensors:
        offsets.append(total)
        total = Analyzer().simplify(total + t.shape[axis])
    shape = list(tensors[0].shape)
    shape[axis] = total

    def body(*idx: Any) -> Any:
        value = None
        for t, off in zip(tensors, offsets):
            src = list(idx)
            src[axis] = idx[axis] - off
            load = t[src]
            value = load if value is None else tir.if_then_else(idx[axis] >= off, load, value)
        return value
    return te.compute(shape, body, name="T_concat", tag="injective")


def take(a: te.Tensor, indices: te.Tensor, axis: int | None = None) -> te.Tensor:
    """Elements of ``a`` at ``indices`` along ``axis`` (flattened when None; ``topi.take``,
    clip mode)."""
    if axis is None:
        flat = reshape(a, [-1])
        n = flat.shape[0]
        return te.compute(indices.shape, lambda *i: flat[tir.min(tir.max(
            tir.Cast(n.dtype, indices[i]), tir.const(0, n.dtype)), n - 1)], name="T_take")
    axis = axis % a.ndim
    shape = list(a.shape[:axis]) + list(indices.shape) + list(a.shape[axis + 1:])
    n = a.shape[axis]

    def body(*idx: Any) -> Any:
        k = indices.ndim
        pos: tir.PrimExpr = tir.Cast(n.dtype, indices[idx[axis:axis + k]])
        pos = tir.min(tir.max(pos, tir.const(0, n.dtype)), n - 1)
        return a[list(idx[:axis]) + [pos] + list(idx[axis + k:])]
    return te.compute(shape, body, name="T_take", tag="injective")


def matmul(a: te.Tensor, b: te.Tensor, transp_a: bool = False,
           transp_b: bool = False) -> te.Tensor:
    """``a @ b`` with optional transposes and batch broadcasting (``topi.matmul``):
    (..., n, k) @ (..., k, m) -> (..., n, m).

    Raises:
        ValueError: when the operands have rank < 2, their reduction extents are different
            constants or batch dims do not broadcast.
    """
    if a.ndim < 2 or b.ndim < 2:
        raise ValueError("matmul: operands must have rank >= 2")
    n = a.shape[-1] if transp_a else a.shape[-2]
    kdim = a.shape[-2] if transp_a else a.shape[-1]
    kdim_b = b.shape[-1] if transp_b else b.shape[-2]
    if isinstance(kdim, tir.IntImm) and isinstance(kdim_b, tir.IntImm) and \
            kdim.value != kdim_b.value:
        raise ValueError(f"matmul: the reduction extents differ: {kdim.value} (of "
                         f"{[getattr(d, 'value', d) for d in a.shape]}) and {kdim_b.value} "
                         f"(of {[getattr(d, 'value', d) for d in b.shape]})")
    m = b.shape[-2] if transp_b else b.shape[-1]
    batch = broadcast_shape(a.shape[:-2], b.shape[:-2])
    k = te.reduce_axis((0, kdim), name="k")

    def bidx(t: te.Tensor, idx: Sequence[Any]) -> list[Any]:
        lead = len(batch) - (t.ndim - 2)
        return [tir.const(0, d.dtype) if isinstance(d, tir.IntImm) and d.value == 1
                else idx[lead + j] for j, d in enumerate(t.shape[:-2])]

    def body(*idx: Any) -> Any:
        i, j = idx[-2], idx[-1]
        ai = bidx(a, idx) + ([k.var, i] if transp_a else [i, k.var])
        bi = bidx(b, idx) + ([j, k.var] if transp_b else [k.var, j])
        return te.sum(a[ai] * b[bi], axis=k)
    return te.compute(list(batch) + [n, m], body, name="T_matmul", tag="matmul")
