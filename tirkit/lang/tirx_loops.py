"""The loop constructors as TVM 0.27's ``tvm.script.tirx`` spells them: ``T.serial(start, stop,
*, annotations, step, unroll, dtype)``, ``T.parallel`` / ``T.vectorized`` / ``T.unroll`` with
``step`` and ``dtype``, and ``T.grid(*extents, dtype)`` whose extents may be ``(start,
extent)`` pairs (mirrors ``python/tvm/tirx/script/builder/ir.py`` and the ``Serial`` ... ``Grid``
builders of ``src/tirx/script/builder/ir.cc``). The classic dialect keeps TVM v0.20's
signatures (no ``unroll``, ``dtype`` or pairs)."""
from __future__ import annotations

from typing import Any, Callable

from tirkit import tir
from tirkit.ir import IntImm, PrimExpr, Range
from tirkit.ir.dtype import dtype as _dtype

from .ir_builder import tir_frames as F
from .ir_builder import tir_stmts as _stmts
from .ir_builder.base import ScriptError

#: ``unroll=`` of ``T.serial`` as the loop annotation it stands for (TVM 0.27)
UNROLL_KEYS = ("pragma_unroll", "disable_unroll")


def _index_dtype(dtype: Any) -> Any:
    """TVM 0.27 ``CheckExplicitIndexDtype``: a loop var's requested dtype is int32 or uint32."""
    t = _dtype(dtype)
    if t.lanes != 1 or t.bits != 32 or not (t.is_int() or t.is_uint()):
        raise ScriptError(f'dtype of a loop var must be "int32" or "uint32", got {t}',
                          arg="dtype")
    return t


def _bound(e: Any, t: Any) -> PrimExpr:
    """TVM 0.27 ``ConvertLoopBound``: a bound in the loop var's dtype; an integer literal is
    made again in it, any other expression of another dtype is cast."""
    e = tir.convert(e)
    if e.dtype == t:
        return e
    if isinstance(e, IntImm):
        return tir.IntImm(t, e.value)
    return tir.Cast(t, e)


def _unroll_annotations(annotations: dict[str, Any] | None, unroll: Any) -> Any:
    """``annotations`` with ``unroll`` added as TVM 0.27's ``T.serial`` adds it: ``True`` ->
    ``{"pragma_unroll": True}``, ``False`` -> ``{"disable_unroll": True}``, ``n >= 1`` ->
    ``{"pragma_unroll": n}``."""
    if unroll is None:
        return annotations
    out = dict(annotations or {})
    if isinstance(unroll, bool):
        out["pragma_unroll" if unroll else "disable_unroll"] = True
    elif isinstance(unroll, int):
        if unroll < 1:
            raise ScriptError("unroll must be a positive integer", arg="unroll")
        out["pragma_unroll"] = unroll
    else:
        raise ScriptError(f"unroll must be a bool, a positive integer, or None, got {unroll!r}",
                          arg="unroll")
    return out


def _typed(method: Callable[..., F.ForFrame], start: Any, stop: Any,
           annotations: dict[str, Any] | None, step: Any, dtype: Any) -> F.ForFrame:
    if stop is None:
        start, stop = 0, start
    if dtype is not None:
        t = _index_dtype(dtype)
        start, stop = _bound(start, t), _bound(stop, t)
        step = None if step is None else _bound(step, t)
    return method(start, stop, step, annotations=annotations)


def serial(start: Any, stop: Any = None, *, annotations: dict[str, Any] | None = None,
           step: Any = None, unroll: bool | int | None = None, dtype: str | None = None
           ) -> F.ForFrame:
    """A serial loop over ``[start, stop)`` (TVM 0.27 tirx ``T.serial``). ``step``: the For's
    step; ``unroll``: ``True`` / ``n`` add the annotation ``pragma_unroll`` (CUDA's ``#pragma
    unroll [n]``), ``False`` adds ``disable_unroll``; ``dtype``: the loop var's dtype,
    ``"int32"`` or ``"uint32"`` (bounds of another dtype are cast; default: the bounds').

    Raises:
        ScriptError: for an ``unroll`` below 1 or not a bool / int, or another ``dtype``.
    """
    return _typed(_stmts.serial, start, stop, _unroll_annotations(annotations, unroll), step,
                  dtype)


def parallel(start: Any, stop: Any = None, *, annotations: dict[str, Any] | None = None,
             step: Any = None, dtype: str | None = None) -> F.ForFrame:
    """A parallel loop (TVM 0.27 tirx ``T.parallel``; ``dtype`` as :func:`serial`'s)."""
    return _typed(_stmts.parallel, start, stop, annotations, step, dtype)


def vectorized(start: Any, stop: Any = None, *, annotations: dict[str, Any] | None = None,
               step: Any = None, dtype: str | None = None) -> F.ForFrame:
    """A vectorized loop (TVM 0.27 tirx ``T.vectorized``; ``dtype`` as :func:`serial`'s)."""
    return _typed(_stmts.vectorized, start, stop, annotations, step, dtype)


def unroll(start: Any, stop: Any = None, *, annotations: dict[str, Any] | None = None,
           step: Any = None, dtype: str | None = None) -> F.ForFrame:
    """An unrolled loop (TVM 0.27 tirx ``T.unroll``; ``dtype`` as :func:`serial`'s)."""
    return _typed(_stmts.unroll, start, stop, annotations, step, dtype)


def grid(*extents: Any, dtype: str | None = None) -> F.ForFrame:
    """Nested serial loops, one per extent (TVM 0.27 tirx ``T.grid``): an extent ``n`` loops
    over ``[0, n)``, a pair ``(start, extent)`` over ``[start, start + extent)``; ``dtype``
    (``"int32"`` / ``"uint32"``) types every loop var (default: each one its extent's, or its
    start's for a pair).

    Raises:
        ScriptError: for a pair that is not two values, or a ``dtype`` other than int32 /
        uint32.
    """
    t = None if dtype is None else _index_dtype(dtype)
    vars_, doms = [], []
    for i, ext in enumerate(extents):
        if isinstance(ext, (tuple, list)):
            if len(ext) != 2:
                raise ScriptError(f"a T.grid extent is a value or a (start, extent) pair, got "
                                  f"{len(ext)} values", arg=i)
            lo = tir.convert(ext[0])
            vt = t if t is not None else lo.dtype
            lo, n = _bound(lo, vt), _bound(ext[1], vt)
        else:
            n = tir.convert(ext)
            vt = t if t is not None else n.dtype
            lo, n = tir.IntImm(vt, 0), _bound(n, vt)
        vars_.append(tir.Var("v", vt))
        doms.append(Range.from_min_extent(lo, n))

    def make(v: tir.Var, dom: Range, body: tir.Stmt) -> tir.Stmt:
        return tir.For(v, dom.min, dom.extent, tir.ForKind.SERIAL, body)

    return F.ForFrame(vars_, doms, make)


#: the tirx loop names (:data:`tirkit.lang.tirx.TIRX_NAMES` takes them)
LOOPS: dict[str, Any] = {"serial": serial, "parallel": parallel, "vectorized": vectorized,
                         "unroll": unroll, "grid": grid}
