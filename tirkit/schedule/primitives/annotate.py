"""annotate, unannotate, storage_align, set_scope, set_axis_separator, unsafe_set_dtype (mirrors
``src/tir/schedule/primitive/annotate.cc`` and ``block_annotate.cc``)."""
from __future__ import annotations

import re
from typing import Any, Sequence

from ...ir.dtype import dtype as _dtype
from ...ir.type import PointerType, PrimType
from ...tir import op
from ...tir.expr import BufferLoad, Var
from ...tir.stmt import Block, BufferStore
from ...tir.stmt_functor import ir_transform
from .. import errors as err
from ..schedule import Schedule, primitive
from ..transform import block_reuse, replace_objects

_SCOPE = re.compile(r"^(global|shared|shared\.dyn|local|warp|wmma\.[a-z_]+|m16n8k8\.[a-z_]+|"
                    r"global\.texture[a-z0-9_-]*|texture|metal\.[a-z_]+)$")


def _value(sch: Schedule, value: Any) -> Any:
    if isinstance(value, Var):
        return sch._expr_value(value)  # pylint: disable=protected-access
    return value


@primitive("Annotate", attrs=("ann_key",))
def annotate(sch: Schedule, block_or_loop: Any, ann_key: str, ann_val: Any) -> None:
    """Set annotation ``ann_key`` to ``ann_val`` (str, int, float, list or ExprRV) on a block or
    loop (``Schedule.annotate``)."""
    sref = sch._sref(block_or_loop)  # pylint: disable=protected-access
    stmt = sref.stmt
    anns = {**stmt.annotations, ann_key: _value(sch, ann_val)}
    sch.state.replace(sref, stmt.with_changes(annotations=anns))


@primitive("Unannotate", attrs=("ann_key",))
def unannotate(sch: Schedule, block_or_loop: Any, ann_key: str) -> None:
    """Remove annotation ``ann_key`` from a block or loop (``Schedule.unannotate``); a missing
    key is a no-op, as in TVM."""
    sref = sch._sref(block_or_loop)  # pylint: disable=protected-access
    stmt = sref.stmt
    anns = {k: v for k, v in stmt.annotations.items() if k != ann_key}
    sch.state.replace(sref, stmt.with_changes(annotations=anns))


def _write_buffer(sch: Schedule, block_sref: Any, buffer_index: int, kind: str = "write") -> Any:
    block: Block = block_sref.stmt
    regions = block.writes if kind == "write" else block.reads
    if not 0 <= buffer_index < len(regions):
        raise err.BufferIndexOutOfRangeError(
            block, reason=f"{kind} buffer index {buffer_index} is out of range: the block has "
            f"{len(regions)} {kind} region(s)")
    return regions[buffer_index].buffer


def _alloc_site(sch: Schedule, block_sref: Any, buffer: Any) -> Any:
    """The sref of the block allocating ``buffer``; NonAllocatedBufferError for a param."""
    for s in (block_sref, *block_sref.ancestors()):
        if s.is_block and any(b is buffer for b in s.stmt.alloc_buffers):
            return s
    raise err.NonAllocatedBufferError(
        block_sref.stmt, reason=f'buffer "{buffer.name}" is not allocated by a block (a function '
        "parameter cannot be changed)")


def _swap_buffer(sch: Schedule, site: Any, old: Any, new: Any) -> None:
    stmt = site.stmt
    out = replace_objects(stmt, {id(old): new})
    sch.state.replace(site, out, block_reuse(stmt, out))


@primitive("StorageAlign", attrs=("buffer_index", "axis", "factor", "offset"))
def storage_align(sch: Schedule, block: Any, buffer_index: int, axis: int, factor: int,
                  offset: int) -> None:
    """Ask lowering to pad the stride of ``axis`` of the block's ``buffer_index``-th written buffer
    so that ``stride % factor == offset`` (``Schedule.storage_align``; block annotation
    ``buffer_dim_align``).

    Raises:
        ScheduleError: ``BufferIndexOutOfRangeError``, ``StorageAlignAxisOutOfRangeError``,
            ``StorageAlignInvalidFactorError``, ``NonAllocatedBufferError``.
    """
    sref = sch._block_sref(block)  # pylint: disable=protected-access
    buf = _write_buffer(sch, sref, buffer_index)
    ndim = len(buf.shape)
    if not -ndim <= axis < ndim:
        raise err.StorageAlignAxisOutOfRangeError(
            sref.stmt, reason=f'axis {axis} is out of range for buffer "{buf.name}" of rank {ndim}')
    if factor <= 0:
        raise err.StorageAlignInvalidFactorError(
            sref.stmt, reason=f"factor must be positive, got {factor}")
    _alloc_site(sch, sref, buf)
    stmt = sref.stmt
    old = [list(x) for x in stmt.annotations.get("buffer_dim_align", [])]
    entry = [buffer_index, axis % ndim, factor, offset]
    old = [x for x in old if x[:2] != entry[:2]] + [entry]
    sch.state.replace(sref, stmt.with_changes(
        annotations={**stmt.annotations, "buffer_dim_align": old}))


@primitive("SetScope", attrs=("buffer_index", "storage_scope"))
def set_scope(sch: Schedule, block: Any, buffer_index: int, storage_scope: str) -> None:
    """Move the block's ``buffer_index``-th written buffer to ``storage_scope`` (``"shared"``,
    ``"local"``...) (``Schedule.set_scope``).

    Raises:
        ScheduleError: ``BufferIndexOutOfRangeError``, ``NonAllocatedBufferError``,
            ``InvalidScopeError``.
    """
    sref = sch._block_sref(block)  # pylint: disable=protected-access
    buf = _write_buffer(sch, sref, buffer_index)
    if not _SCOPE.match(storage_scope):
        raise err.InvalidScopeError(reason=f"invalid storage scope {storage_scope!r}")
    site = _alloc_site(sch, sref, buf)
    if buf.scope() == storage_scope:
        return
    data = Var(buf.data.name_hint, PointerType(PrimType(buf.dtype), storage_scope))
    _swap_buffer(sch, site, buf, buf.with_changes(data=data))


@primitive("SetAxisSeparator", attrs=("buffer_index", "buffer_index_type", "axis_separators"))
def set_axis_separator(sch: Schedule, block: Any, buffer_index: int, buffer_index_type: str,
                       axis_separators: Sequence[int]) -> None:
    """Set the axis separators of a buffer the block reads (``buffer_index_type="read"``) or
    writes (``"write"``) (``Schedule.set_axis_separator``).

    Raises:
        ScheduleError: ``BufferIndexOutOfRangeError``, ``NonAllocatedBufferError``.
    """
    sref = sch._block_sref(block)  # pylint: disable=protected-access
    buf = _write_buffer(sch, sref, buffer_index, buffer_index_type)
    site = _alloc_site(sch, sref, buf)
    _swap_buffer(sch, site, buf, buf.with_changes(axis_separators=tuple(axis_separators)))


@primitive("UnsafeSetDType", attrs=("buffer_index", "dtype"))
def unsafe_set_dtype(sch: Schedule, block: Any, buffer_index: int, dtype: str) -> None:
    """Change the dtype of the block's ``buffer_index``-th written (intermediate) buffer; stores
    cast their value to it and loads cast back (``Schedule.unsafe_set_dtype``: no check that
    precision suffices).

    Raises:
        ScheduleError: ``BufferIndexOutOfRangeError``, ``NonAllocatedBufferError``,
            ``DTypeError`` (an unknown dtype).
    """
    sref = sch._block_sref(block)  # pylint: disable=protected-access
    buf = _write_buffer(sch, sref, buffer_index)
    try:
        new_dtype = _dtype(dtype)
    except (ValueError, TypeError) as exc:
        raise err.DTypeError(sref.stmt, reason=str(exc)) from None
    site = _alloc_site(sch, sref, buf)
    if new_dtype == buf.dtype:
        return
    data = Var(buf.data.name_hint, PointerType(PrimType(new_dtype), buf.scope()))
    new_buf = buf.with_changes(dtype=new_dtype, data=data)

    def post(n: Any) -> Any:
        if isinstance(n, BufferStore) and n.buffer is buf:
            return BufferStore(new_buf, op.cast(new_dtype, n.value), n.indices, n.predicate)
        if isinstance(n, BufferLoad) and n.buffer is buf:
            return op.cast(buf.dtype, BufferLoad(new_buf, n.indices))
        return None
    stmt = site.stmt
    body = ir_transform(stmt, None, post, ["tir.BufferStore", "tir.BufferLoad"])
    out = replace_objects(body, {id(buf): new_buf})
    sch.state.replace(site, out, block_reuse(stmt, out))
