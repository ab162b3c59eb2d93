"""``T.compute`` and ``T.reduce_axis`` inside a prim_func (seed 001's F3 sugar): TE's compute
written in TVMScript, expanded at parse time into the loop nest and block ``te.create_prim_func``
makes for it.

    B = T.compute((m, n), lambda i, j: A[i, j] * 2, name="B")
    k = T.reduce_axis((0, 64), name="k")
    C = T.compute((32, 16), lambda i, j: T.sum(A[i, k] * W[k, j], axis=k), name="C")

The result is a buffer allocated in the enclosing block (the root block at function level) and
named after the assignment target; the statement is the block nest, with ``T.reads/T.writes``
and, for a reduction, an init block.
"""
from __future__ import annotations

import inspect
from typing import Any, Callable

from tirkit import tir
from tirkit.ir import PrimExpr, Range

from . import tir_frames as F
from .base import IRBuilder, ScriptError

__all__ = ["compute", "reduce_axis"]


def _param_names(fcompute: Callable[..., Any], ndim: int) -> list[str]:
    names = getattr(fcompute, "__tirkit_params__", None)
    if names is None:
        try:
            params = inspect.signature(fcompute).parameters.values()
        except (TypeError, ValueError) as err:
            raise ScriptError("T.compute expects a function of the indices", arg=1) from err
        if any(p.kind == inspect.Parameter.VAR_POSITIONAL for p in params):
            return [f"i{k}" for k in range(ndim)]
        names = [p.name for p in params]
    if len(names) != ndim:
        raise ScriptError(f"T.compute: the function takes {len(names)} index(es) but the shape "
                          f"has {ndim} dimension(s)", arg=1)
    return list(names)


def compute(shape: Any, fcompute: Callable[..., Any], name: str = "compute",
            dtype: str | None = None, tag: str = "", attrs: dict[str, Any] | None = None
            ) -> Any:
    """``T.compute(shape, lambda *idx: expr, name=...)``: allocate the output buffer(s) and
    emit the block nest computing them (TE's ``compute`` + ``create_prim_func`` for one op).
    ``dtype`` casts the body; a tuple body gives several buffers (a list).

    Raises:
        ScriptError: for a bad shape or a function whose arity differs from the rank.
    """
    from tirkit.te.create_prim_func import compute_op_stmt  # pylint: disable=import-outside-toplevel
    from tirkit.te.tensor import ComputeOp, Tensor, as_shape  # pylint: disable=import-outside-toplevel

    from .tir_api import alloc_buffer  # pylint: disable=import-outside-toplevel

    try:
        dims = as_shape(shape)
    except TypeError as err:
        raise ScriptError(str(err), arg=0) from None
    axis = [tir.IterVar(Range(tir.const(0, d.dtype), d), tir.Var(n, d.dtype),
                        tir.IterVarType.DataPar)
            for n, d in zip(_param_names(fcompute, len(dims)), dims)]
    body = fcompute(*[iv.var for iv in axis])
    bodies = [tir.convert(b) for b in (body if isinstance(body, (list, tuple)) else [body])]
    if dtype is not None:
        bodies = [b if b.dtype == dtype or isinstance(b, tir.Reduce) else tir.Cast(dtype, b)
                  for b in bodies]
    op = ComputeOp(name, tag, attrs, axis, bodies)
    for k, b in enumerate(bodies):
        t = Tensor(dims, str(b.dtype), op, k, name if len(bodies) == 1 else f"{name}_v{k}")
        t.buffer = alloc_buffer(dims, str(b.dtype))
        IRBuilder.name(t.name, t.buffer)
        op.outputs.append(t)
    F.add_to_parent(compute_op_stmt(op))
    bufs = [t.buffer for t in op.outputs]
    return bufs[0] if len(bufs) == 1 else bufs


def reduce_axis(dom: Any, name: str = "rv") -> tir.IterVar:
    """``T.reduce_axis((0, n), name="k")``: a reduction axis for ``T.sum``/``T.max``/``T.min``
    in a ``T.compute`` body (``te.reduce_axis``)."""
    from tirkit.te.reduction import reduce_axis as te_reduce_axis  # pylint: disable=import-outside-toplevel

    if isinstance(dom, (int, PrimExpr)) or (isinstance(dom, (list, tuple)) and len(dom) == 2):
        return te_reduce_axis(dom, name)
    raise ScriptError("T.reduce_axis expects an extent or a (begin, end) pair", arg=0)
