"""Source spans carried by IR nodes (mirrors ``tvm.ir.Span``)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Span:
    """A range of source text an IR node came from. Mirrors ``tvm.ir.Span``.

    Lines are 1-based, columns are 0-based character columns (as Python's ``ast``), the range is
    half-open ``[start, end)``. ``start_offset``/``end_offset`` are 0-based byte offsets into the
    file (``-1`` when unknown), so a host file can be sliced without recounting lines.
    """

    source_name: str
    line: int
    column: int
    end_line: int
    end_column: int
    start_offset: int = -1
    end_offset: int = -1

    def merge(self, other: "Span | None") -> "Span":
        """The smallest span covering ``self`` and ``other`` (``other=None`` returns ``self``)."""
        if other is None:
            return self
        first = min(self, other, key=lambda s: (s.line, s.column))
        last = max(self, other, key=lambda s: (s.end_line, s.end_column))
        return Span(self.source_name, first.line, first.column, last.end_line, last.end_column,
                    first.start_offset, last.end_offset)

    def __str__(self) -> str:
        return f"{self.source_name}:{self.line}:{self.column + 1}"
