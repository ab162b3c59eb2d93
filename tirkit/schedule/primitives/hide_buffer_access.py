"""unsafe_hide_buffer_access (mirrors ``src/tir/schedule/primitive/hide_buffer_access.cc``)."""
from __future__ import annotations

from typing import Any, Sequence

from .. import errors as err
from ..schedule import Schedule, primitive

BufTypeError = err._error(  # pylint: disable=protected-access
    "BufTypeError", "Invalid buffer type for hide_buffer_access schedule.",
    "{0}: The buffer type for hide_buffer_access schedule should either be 'read' or 'write', "
    "got {buf_type!r} instead.")
InvalidIndexError = err._error(  # pylint: disable=protected-access
    "InvalidIndexError", "Invalid buffer index array for hide_buffer_access schedule.",
    "{0}: The buffer index array for hide_buffer_access schedule should be a list of integers "
    "between 0 and {last}, got {index} instead.")


@primitive("UnsafeHideBufferAccess")
def unsafe_hide_buffer_access(sch: Schedule, block: Any, buf_type: str,
                              buf_index_array: Sequence[int]) -> None:
    """Drop the ``buf_index_array``-th read (``buf_type="read"``) or write (``"write"``) regions
    from the block's signature, e.g. an index buffer of a sparse kernel that would stop
    ``tensorize`` from matching (``Schedule.unsafe_hide_buffer_access``). Unsafe: the dependence
    analysis no longer sees those accesses.

    Raises:
        ScheduleError: ``BufTypeError`` (``buf_type`` neither ``"read"`` nor ``"write"``),
            ``InvalidIndexError`` (an index outside the block's regions).
    """
    sref = sch._block_sref(block)  # pylint: disable=protected-access
    stmt = sref.stmt
    if buf_type not in ("read", "write"):
        raise BufTypeError(stmt, buf_type=buf_type)
    regions = stmt.reads if buf_type == "read" else stmt.writes
    hidden = set()
    for i in buf_index_array:
        index = int(getattr(i, "value", i))
        if not 0 <= index < len(regions):
            raise InvalidIndexError(stmt, last=len(regions) - 1, index=index)
        hidden.add(index)
    kept = tuple(r for i, r in enumerate(regions) if i not in hidden)
    new = stmt.with_changes(**{"reads" if buf_type == "read" else "writes": kept})
    sch.state.replace(sref, new, {stmt: new})
