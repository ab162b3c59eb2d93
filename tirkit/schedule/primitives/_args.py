"""Argument handling shared by the cache, layout and blockize primitives (mirrors
``Schedule._normalize_block_arg`` / ``_normalize_buffer_arg`` of TVM's ``schedule.py``) and the
step that hands an IR-level result to the schedule state."""
from __future__ import annotations

from typing import Any, Sequence, cast

from ...tir import stmt as S
from ...tir.buffer import Buffer
from ...tir.function import PrimFunc
from .. import errors as err
from ..schedule import Schedule
from ._ir_utils import PrimitiveResult


def as_block_rv(sch: Schedule, block: Any) -> Any:
    """A block name becomes ``sch.get_block(name)`` (recorded, as in TVM's Python)."""
    return sch.get_block(block) if isinstance(block, str) else block


def as_block_rvs(sch: Schedule, blocks: Sequence[Any] | None) -> list[Any]:
    """:func:`as_block_rv` over a list (``None`` is the empty list)."""
    return [as_block_rv(sch, b) for b in blocks or []]


def block_of(sch: Schedule, block_rv: Any) -> S.Block:
    """The Block a BlockRV (or name) stands for."""
    return sch._block_sref(as_block_rv(sch, block_rv)).stmt  # pylint: disable=protected-access


def nth_access_buffer(block: S.Block, index: int, kind: str) -> Buffer:
    """``block.reads[index]`` / ``block.writes[index]``'s buffer (TVM's ``GetNthAccessBuffer``).

    Raises:
        BufferIndexOutOfRangeError: when ``index`` is not a valid position.
    """
    regions = block.reads if kind == "read" else block.writes
    if not 0 <= index < len(regions):
        raise err.BufferIndexOutOfRangeError(
            block, reason=f"the {kind} buffer index {index} is out of range: the block has "
            f"{len(regions)} {kind} region(s)")
    return regions[index].buffer


def normalize_buffer(sch: Schedule, block_rv: Any, buffer: Any,
                     required: str | None = None) -> tuple[str, int]:
    """``(buffer_index_type, buffer_index)`` of ``buffer`` given as an index (with ``required``),
    a ``("read"|"write", index)`` pair, a buffer name or a Buffer (TVM's
    ``_normalize_buffer_arg``).

    Raises:
        InvalidArgumentError: when the buffer is not accessed by the block, the name is
            ambiguous, or an index is given without a buffer type.
    """
    block = block_of(sch, block_rv)
    if isinstance(buffer, (tuple, list)) and len(buffer) == 2 and isinstance(buffer[0], str):
        if buffer[0] not in ("read", "write"):
            raise err.InvalidArgumentError(block, reason=f"the buffer type must be 'read' or "
                                           f"'write', got {buffer[0]!r}")
        nth_access_buffer(block, int(buffer[1]), buffer[0])
        return str(buffer[0]), int(buffer[1])
    if isinstance(buffer, int) and not isinstance(buffer, bool):
        if required is None:
            raise err.InvalidArgumentError(block, reason="a buffer index needs its type: pass "
                                           "('read', i) or ('write', i)")
        nth_access_buffer(block, buffer, required)
        return required, buffer
    hits = []
    for kind, regions in (("read", block.reads), ("write", block.writes)):
        if required is not None and kind != required:
            continue
        for i, r in enumerate(regions):
            if r.buffer is buffer or (isinstance(buffer, str) and r.buffer.name == buffer):
                hits.append((kind, i, r.buffer))
    if not hits:
        name = buffer.name if isinstance(buffer, Buffer) else buffer
        raise err.InvalidArgumentError(block, reason=f'block "{block.name_hint}" '
                                       f"does not {required or 'access'} a buffer {name!r}")
    if len({id(h[2]) for h in hits}) > 1:
        raise err.InvalidArgumentError(block, reason=f"the buffer name {buffer!r} is ambiguous "
                                       f'in block "{block.name_hint}"')
    return hits[0][0], hits[0][1]


def func_body(sch: Schedule, block_rv: Any) -> S.Stmt:
    """The body of the function holding the block or loop ``block_rv``."""
    sref = sch._sref(block_rv)  # pylint: disable=protected-access
    return cast(PrimFunc, sch.state.mod[sch.state.func_of(sref)]).body


def apply_result(sch: Schedule, result: PrimitiveResult) -> list[Any]:
    """Replace ``result.scope`` by ``result.new_scope`` in the state and return RVs of
    ``result.blocks``."""
    sref = sch.state.get_sref(result.scope)
    if sref is None:
        raise err.ScheduleError(fast="internal error: the replaced statement has no sref")
    sch.state.replace(sref, result.new_scope, result.block_reuse)
    out = []
    for block in result.blocks:
        new_sref = sch.state.get_sref(block)
        if new_sref is None:
            raise err.ScheduleError(fast=f"internal error: block {block.name_hint!r} was not "
                                    "placed in the IR")
        out.append(sch._new_rv(new_sref))  # pylint: disable=protected-access
    return out
