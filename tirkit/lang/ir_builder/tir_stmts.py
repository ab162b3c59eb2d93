"""Loops and statement-level ``T.`` functions of the TIR IRBuilder (mirrors the loop, scope and
statement part of ``tvm.script.ir_builder.tir.ir``)."""
from __future__ import annotations

import math
from typing import Any, Callable

from tirkit import tir
from tirkit.arith import Analyzer
from tirkit.ir import IntImm, PointerType, PrimExpr, PrimType, Range
from tirkit.ir.dtype import DataType
from tirkit.ir.dtype import dtype as _dtype
from tirkit.tir import op as O

from . import tir_frames as F
from .base import IRBuilder, ScriptError
from .tir_api import named_strides


# ------------------------------------------------------------------------------------ loops
def _loop_bounds(start: Any, stop: Any) -> tuple[PrimExpr, PrimExpr, Any]:
    if stop is None:
        start, stop = 0, start
    lo, hi = tir.convert_pair(start, stop)
    for bound in (lo, hi):  # (cast keeps a non-finite float constant as a Cast: refuse it here)
        if isinstance(bound, tir.FloatImm) and not math.isfinite(bound.value):
            int(bound.value)  # Python's own error: OverflowError (infinity), ValueError (NaN)
    dt = lo.dtype if lo.dtype == hi.dtype else _dtype("int64")
    lo, hi = tir.cast(dt, lo), tir.cast(dt, hi)
    return lo, hi, dt


def _loop(kind: tir.ForKind, start: Any, stop: Any, annotations: Any = None,
          thread: str | None = None, step: Any = None) -> F.ForFrame:
    lo, hi, dt = _loop_bounds(start, stop)
    # TVM: ``arith::Analyzer().Simplify(stop - start)``
    extent = hi if _is_zero(lo) else Analyzer().simplify(tir.subtract(hi, lo))
    var = tir.Var("v", dt)
    # TVM 0.27 ``ConvertLoopBound``: an int literal takes the loop var's dtype, others a Cast
    st = None if step is None else tir.cast(dt, tir.convert(step))

    def make(v: tir.Var, dom: Range, body: tir.Stmt) -> tir.Stmt:
        # TVM binds a fresh "iter" var in the For's thread_binding IterVar.
        binding = tir.IterVar(None, tir.Var("iter", dt), tir.IterVarType.ThreadIndex, thread) \
            if thread is not None else None
        return tir.For(v, dom.min, dom.extent, kind, body, binding, dict(annotations or {}), st)

    return F.ForFrame([var], [Range.from_min_extent(lo, extent)], make)


def _keeps_steps() -> bool:
    return IRBuilder.is_in_scope() and IRBuilder.current().keep_loop_steps


def _strided(kind: tir.ForKind, start: Any, stop: Any, step: Any,
              annotations: Any = None) -> F.ForFrame:
    """A loop over ``range(start, stop, step)``. In the tirx dialect, as TVM 0.27 has it: a
    For of min ``start``, extent ``stop - start`` and ``step`` (kept as written, even 1, 0 or
    negative: ``CanonicalizeLoop`` judges it). In the classic dialect (TVM v0.20's For has no
    step) a unit-stride loop ``v`` over ``ceildiv(stop - start, step)`` iterations whose body
    sees ``start + v * step``."""
    if stop is None:
        start, stop = 0, start
    if step is not None and (isinstance(step, bool) or not isinstance(step, (int, PrimExpr))):
        raise ScriptError(f"a loop step must be an integer, got {step!r}", arg=2)
    if step is not None and _keeps_steps():
        return _loop(kind, start, stop, annotations, step=step)
    if step is None or (isinstance(step, (int, IntImm)) and int(step) == 1):
        return _loop(kind, start, stop, annotations)
    if isinstance(step, (int, IntImm)) and int(step) == 0:
        raise ScriptError("a loop step must not be zero", arg=2)
    lo, hi, dt = _loop_bounds(start, stop)
    st = tir.cast(dt, tir.convert(step))
    ana = Analyzer()
    negative = isinstance(st, IntImm) and st.value < 0
    span_ = tir.subtract(lo, hi) if negative else tir.subtract(hi, lo)
    mag = tir.const(-st.value, dt) if isinstance(st, IntImm) and negative else st
    count = ana.simplify(tir.max(tir.floordiv(span_ + mag - tir.const(1, dt), mag),
                                 tir.const(0, dt)))
    frame = _loop(kind, tir.const(0, dt), count, annotations)
    var = frame.vars[0]
    frame.index_exprs = [var * st if _is_zero(lo) else lo + var * st]
    return frame


def _is_zero(e: PrimExpr) -> bool:
    return isinstance(e, tir.IntImm) and e.value == 0


def serial(start: Any, stop: Any = None, step: Any = None, *,
           annotations: dict[str, Any] | None = None) -> F.ForFrame:
    """A serial loop over ``[start, stop)`` (``T.serial``; ``range`` in TVMScript). With a
    ``step``: in the tirx dialect a For of that step (TVM 0.27 ``T.serial(..., step=)``), in the
    classic one a unit-stride loop whose body sees ``start + i * step`` (TVM v0.20 has no step).
    """
    return _strided(tir.ForKind.SERIAL, start, stop, step, annotations)


def parallel(start: Any, stop: Any = None, step: Any = None, *,
           annotations: dict[str, Any] | None = None) -> F.ForFrame:
    """A parallel loop (``T.parallel``)."""
    return _strided(tir.ForKind.PARALLEL, start, stop, step, annotations)


def vectorized(start: Any, stop: Any = None, step: Any = None, *,
           annotations: dict[str, Any] | None = None) -> F.ForFrame:
    """A vectorized loop (``T.vectorized``)."""
    return _strided(tir.ForKind.VECTORIZED, start, stop, step, annotations)


def unroll(start: Any, stop: Any = None, step: Any = None, *,
           annotations: dict[str, Any] | None = None) -> F.ForFrame:
    """An unrolled loop (``T.unroll``)."""
    return _strided(tir.ForKind.UNROLLED, start, stop, step, annotations)


def thread_binding(start: Any, stop: Any = None, thread: str | None = None, *,
                   annotations: dict[str, Any] | None = None) -> F.ForFrame:
    """A loop bound to a GPU thread axis such as ``"threadIdx.x"`` (``T.thread_binding``).

    Raises:
        ValueError: when no thread tag is given.
    """
    if thread is None:
        if isinstance(stop, str):
            start, stop, thread = 0, start, stop
        else:
            raise ValueError("T.thread_binding needs a thread tag: thread=\"threadIdx.x\", "
                             "\"blockIdx.x\"...")
    _check_thread_tag(thread, (2, "thread"))
    return _loop(tir.ForKind.THREAD_BINDING, start, stop, annotations, thread)


def range_(*args: Any, annotations: dict[str, Any] | None = None) -> F.ForFrame:
    """Python's ``range`` inside a prim_func: a serial loop (``range(stop)``,
    ``range(start, stop)``; ``range(start, stop, step)`` a stepped loop as :func:`serial`:
    TVM 0.27 tirx ``T.serial(start, stop, step=step)``).

    Raises:
        TypeError: for more than three arguments; ScriptError: for a zero or non-integer
        step.
    """
    if not 1 <= len(args) <= 3:
        raise TypeError(f"range expected at most 3 arguments, got {len(args)}" if args
                        else "range expected at least 1 argument, got 0")
    return serial(args[0], args[1] if len(args) > 1 else None,
                  args[2] if len(args) > 2 else None, annotations=annotations)


range_.__name__ = "range"

THREAD_TAGS = frozenset(
    [f"{k}.{a}" for k in ("blockIdx", "threadIdx") for a in "xyz"]
    + ["vthread", "vthread.x", "vthread.y", "vthread.z", "cthread"])


def _check_thread_tag(tag: str, arg: Any) -> None:
    if tag not in THREAD_TAGS:
        raise ScriptError(f"unknown thread tag {tag!r}: expected one of blockIdx.x/y/z, "
                          "threadIdx.x/y/z, vthread", arg=arg)


def grid(*extents: Any) -> F.ForFrame:
    """Nested serial loops, one per extent (``T.grid``); ``with`` binds a list of vars."""
    vars_, doms = [], []
    for ext in extents:
        lo, hi, dt = _loop_bounds(ext, None)
        vars_.append(tir.Var("v", dt))
        doms.append(Range.from_min_extent(lo, hi))

    def make(v: tir.Var, dom: Range, body: tir.Stmt) -> tir.Stmt:
        return tir.For(v, dom.min, dom.extent, tir.ForKind.SERIAL, body)

    return F.ForFrame(vars_, doms, make)


# ----------------------------------------------------------------------------------- scopes
def Assert(condition: Any, message: Any) -> F.AssertFrame:  # pylint: disable=invalid-name
    """An assertion scope (``T.Assert``). ``message`` is a string, or TVM 0.27's
    ``(kind, [parts])`` pair, ``("ValueError", ["expected ", "4"])``: the AssertStmt's
    ``error_kind`` and ``message_parts`` (TVM 0.27 ``T.Assert(cond, parts, error_kind=kind)``;
    a part that is not a string is written with ``str``, as its parser does)."""
    kind: Any = "RuntimeError"
    parts: tuple[str, ...] = ()
    if isinstance(message, tuple) and len(message) == 2 and \
            isinstance(getattr(message[0], "value", message[0]), str) and \
            isinstance(message[1], (list, tuple)):
        kind = getattr(message[0], "value", message[0])
        parts = tuple(str(getattr(m, "value", m)) for m in message[1])
        message = "".join(parts)
    return F.AssertFrame(tir.convert(condition), message, kind, parts)


def LetStmt(value: Any, type_annotation: Any = None, *, var: Any = None  # pylint: disable=invalid-name
            ) -> F.LetFrame:
    """Bind a new var to ``value`` over the rest of the scope (``T.LetStmt``)."""
    value = tir.convert(value)
    if var is None:
        t = type_annotation if type_annotation is not None else value.dtype
        # ``T.handle("float32")`` is a Var: keep its pointer type annotation, as TVM does
        var = tir.Var("v", t.type_annotation if isinstance(t, tir.Var) else t)
    return F.LetFrame(var, tir.cast(var.dtype, value) if var.dtype != value.dtype else value)


def attr(node: Any, attr_key: str, value: Any) -> F.AttrFrame:
    """An attribute scope (``T.attr``).

    Raises:
        TypeError: ``attr_key`` is not a string (as TVM's ``AttrStmt`` refuses it).
    """
    if not isinstance(attr_key, str):
        raise TypeError(f"T.attr() key must be a string, got {type(attr_key).__name__}")
    return F.AttrFrame(node, attr_key, tir.convert(value))


def While(condition: Any) -> F.WhileFrame:  # pylint: disable=invalid-name
    """A while loop (``T.While``; ``while`` in TVMScript)."""
    return F.WhileFrame(tir.convert(condition))


def If(condition: Any) -> F.IfFrame:  # pylint: disable=invalid-name
    """An if statement on a PrimExpr (``T.If``; ``if`` in TVMScript)."""
    return F.IfFrame(tir.convert(condition))


def Then() -> F.ThenFrame:  # pylint: disable=invalid-name
    """The then-branch of ``T.If`` (``T.Then``)."""
    return F.ThenFrame()


def Else() -> F.ElseFrame:  # pylint: disable=invalid-name
    """The else-branch of ``T.If`` (``T.Else``)."""
    return F.ElseFrame()


def _data_var(dtype: Any, scope: str) -> tir.Var:
    return tir.Var("", PointerType(PrimType(_dtype(dtype)), scope or "global"))


def allocate(extents: Any, dtype: Any, scope: str = "global", condition: Any = True,
             annotations: dict[str, Any] | None = None) -> F.AllocateFrame:
    """Allocate memory over the rest of the scope (``T.allocate``); binds the new data pointer
    Var (TVM v0.20), which ``T.Buffer(shape, dtype, data=ptr)`` views."""
    extents = list(extents) if isinstance(extents, (list, tuple)) else [extents]
    buf = tir.decl_buffer(extents, dtype, "", _data_var(dtype, scope))
    return F.AllocateFrame(buf, list(buf.shape), tir.convert(condition), annotations)


def allocate_const(data: Any, dtype: Any, extents: Any,
                   annotations: dict[str, Any] | None = None) -> F.AllocateConstFrame:
    """A constant array over the rest of the scope (``T.allocate_const``)."""
    extents = list(extents) if isinstance(extents, (list, tuple)) else [extents]
    buf = tir.decl_buffer(extents, dtype, "", _data_var(dtype, "global"))
    return F.AllocateConstFrame(buf, data, annotations)


def decl_buffer(shape: Any, dtype: Any = "float32", data: Any = None, strides: Any = None,
                elem_offset: Any = None, scope: str = "global", align: int = -1,
                offset_factor: int = 0, buffer_type: str = "", axis_separators: Any = None
                ) -> F.DeclBufferFrame:
    """Declare a buffer over the rest of the scope (``T.decl_buffer``); without ``data`` the
    memory is allocated too. ``data`` is a pointer Var, or (TVM 0.27) a pointer expression such
    as ``T.address_of(A[16])``, which a new pointer var is bound to first (the LetStmt TVM v0.20
    spells ``B_data: T.handle("float32") = T.address_of(A[16])``).

    Raises:
        ScriptError: ``data`` is an expression that is not a pointer (``handle``).
    """
    allocated, bound = data is None, None
    if data is None:
        data = _data_var(dtype, scope)
    elif isinstance(data, PrimExpr) and not isinstance(data, tir.Var):
        if not data.dtype.is_handle():
            raise ScriptError(f"T.decl_buffer: data must be a pointer (a handle Var or "
                              f"expression), got a {data.dtype} expression", arg="data")
        data, bound = _data_var(dtype, scope), data
    shape = (shape,) if isinstance(shape, (int, PrimExpr)) else shape
    buf = tir.decl_buffer(shape, dtype, "", data, named_strides(strides), elem_offset, scope,
                          align, offset_factor, buffer_type, axis_separators)
    return F.DeclBufferFrame(buf, allocated, bound)


def buffer_view(buffer: tir.Buffer, *shape: Any, dtype: Any = None) -> F.DeclBufferFrame:
    """``A.view(8, 8)``: a buffer of another shape over ``A``'s data, with ``A``'s strides,
    elem_offset, scope, align and offset_factor; ``A.view("float16")``: ``A`` read as another
    dtype, its last dim (and elem_offset) scaled by the ratio of the bit widths (TVM 0.27 tirx
    ``Buffer.view``; classic ``T.decl_buffer((8, 8), data=A.data)``). tirkit also reads
    ``A.view((8, 8), dtype="float16")``.

    Raises:
        ScriptError: ``A.view(dtype)`` of a rank-0 buffer, or bit widths not multiples.
    """
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    elem_offset = buffer.elem_offset
    if len(shape) == 1 and isinstance(shape[0], (str, DataType)) and dtype is None:
        dtype = _dtype(shape[0])
        old, new = buffer.dtype.bits, dtype.bits
        if not buffer.shape or max(old, new) % min(old, new):
            raise ScriptError(f"{buffer.name}.view({str(dtype)!r}): cannot view a "
                              f"{buffer.dtype} buffer of shape {list(buffer.shape)} as {dtype}")
        last = buffer.shape[-1]
        if new > old:
            last, elem_offset = O.floordiv(last, new // old), O.floordiv(elem_offset, new // old)
        else:
            last, elem_offset = O.multiply(last, old // new), O.multiply(elem_offset, old // new)
        shape = (*buffer.shape[:-1], last)
    return decl_buffer(shape, buffer.dtype if dtype is None else dtype, buffer.data,
                       list(buffer.strides) or None, elem_offset, buffer.scope(),
                       buffer.data_alignment, buffer.offset_factor)


#: methods of a Buffer in TVMScript that build statements (``A.view(...)``), by name
BUFFER_METHODS = {"view": buffer_view}


def realize(buffer_slice: tir.BufferRegion, scope: str, condition: Any = True) -> F.RealizeFrame:
    """Realize a buffer region (``T.realize``)."""
    return F.RealizeFrame(buffer_slice, scope, tir.convert(condition))


def env_thread(thread_tag: str, dtype: str = "int32") -> tir.IterVar:
    """A thread IterVar for ``T.launch_thread`` (``T.env_thread``)."""
    return tir.IterVar(None, tir.Var(thread_tag, dtype), tir.IterVarType.ThreadIndex, thread_tag)


def iter_var(v: Any, dom: Any, iter_type: str, thread_tag: str) -> tir.IterVar:
    """An IterVar (``T.iter_var(v, T.Range(0, n), "ThreadIndex", "threadIdx.x")``; mirrors
    ``tvm.script.ir_builder.tir.iter_var``): ``v`` a Var or a name, ``iter_type`` the name of an
    ``IterVar`` kind (``"DataPar"``, ``"ThreadIndex"``, ``"CommReduce"`` ...).

    Raises:
        ScriptError: for an unknown ``iter_type``.
    """
    try:
        kind = tir.IterVarType[iter_type]
    except KeyError:
        raise ScriptError(f"T.iter_var: unknown iter_type {iter_type!r}; expected one of "
                          f"{', '.join(t.name for t in tir.IterVarType)}", arg=2) from None
    return tir.IterVar(dom, v, kind, thread_tag)


def launch_thread(thread: Any, extent: Any) -> F.LaunchThreadFrame:
    """Launch a GPU thread axis over the rest of the scope (``T.launch_thread``).

    ``thread`` is an IterVar from ``T.env_thread`` or a tag string like ``"threadIdx.x"``; a
    tag's var takes the extent's dtype (``T.launch_thread("blockIdx.x", T.int64(1))`` is an
    int64 var, as TVM's ``LaunchThread(thread_tag, extent)``; a Python int gives int32).
    """
    if isinstance(thread, str):
        _check_thread_tag(thread, (0, "thread"))
        thread = env_thread(thread, str(extent.dtype) if isinstance(extent, PrimExpr) else "int32")
    extent = tir.convert(extent, thread.var.dtype)
    iv = thread.with_changes(dom=Range.from_min_extent(tir.convert(0, extent.dtype), extent))
    object.__setattr__(iv, "var", thread.var)
    key = "virtual_thread" if thread.thread_tag.startswith("vthread") else "thread_extent"
    return F.LaunchThreadFrame(iv, extent, key)


# ------------------------------------------------------------------------------- statements
def buffer_store(buffer: tir.Buffer, value: Any, indices: Any, predicate: Any = None) -> None:
    """``buffer[indices] = value`` (``T.buffer_store``); a Python number takes the buffer's
    dtype. A numeric value of another element dtype is cast to the buffer's, as TVM's IRBuilder
    does ("Casting in BufferStore may lose precision"); a handle or a lane mismatch is an error.
    """
    if isinstance(value, PrimExpr):
        have, want = value.dtype, buffer.dtype
        numeric = not (have.is_handle() or have.is_void())
        if numeric and have.element_of() != want.element_of():
            value = tir.cast(want.element_of().with_lanes(have.lanes), value)
    F.add_to_parent(tir.BufferStore(buffer, value, indices, predicate))


def evaluate(value: Any) -> None:
    """Evaluate an expression for its effect (``T.evaluate``)."""
    F.add_to_parent(tir.Evaluate(tir.convert(value)))


def prefetch(buffer: tir.Buffer, bounds: Any) -> None:
    """A prefetch hint (``T.prefetch``)."""
    F.add_to_parent(tir.Prefetch(buffer, bounds))


def break_() -> None:
    """``break`` (tirx)."""
    F.add_to_parent(tir.Break())


def continue_() -> None:
    """``continue`` (tirx)."""
    F.add_to_parent(tir.Continue())


def stmt_builder(make: Callable[..., tir.Stmt]) -> Callable[..., None]:
    """Wrap a statement constructor so calling it adds the statement to the current frame."""
    def add(*args: Any, **kwargs: Any) -> None:
        F.add_to_parent(make(*args, **kwargs))
    add.__doc__ = f"Add a ``{getattr(make, '__name__', 'stmt')}`` to the current frame."
    return add
