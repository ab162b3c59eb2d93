"""Source spans carried by IR nodes (mirrors ``tvm.ir.Span``)."""
from __future__ import annotations

from dataclasses import dataclass

from .fast_init import fast_init


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


# built per token and node
Span.__init__ = fast_init(Span) or Span.__init__  # type: ignore[method-assign]


class LineIndex:
    """Converts between character offsets, UTF-8 byte offsets and (line, column) positions of one
    source text, so every layer builds :class:`Span` objects in file coordinates the same way
    (TVM keeps a ``SourceMap`` per file for the same purpose).

    Lines are 1-based, columns 0-based in characters (code points), offsets 0-based.
    """

    __slots__ = ("text", "source_name", "_line_starts", "_ascii")

    def __init__(self, text: str, source_name: str = "<string>") -> None:
        self.text = text
        self.source_name = source_name
        starts = [0]
        pos = text.find("\n")
        while pos != -1:
            starts.append(pos + 1)
            pos = text.find("\n", pos + 1)
        self._line_starts = starts
        self._ascii = text.isascii()

    def position(self, offset: int) -> tuple[int, int]:
        """``(line, column)`` of character ``offset``."""
        import bisect  # pylint: disable=import-outside-toplevel

        line = bisect.bisect_right(self._line_starts, offset)
        return line, offset - self._line_starts[line - 1]

    def offset(self, line: int, column: int) -> int:
        """Character offset of ``(line, column)``."""
        return self._line_starts[line - 1] + column

    def byte_offset(self, offset: int) -> int:
        """UTF-8 byte offset of character ``offset``."""
        if self._ascii:
            return offset
        return len(self.text[:offset].encode("utf-8"))

    def line_text(self, line: int) -> str:
        """The text of 1-based ``line`` without its newline."""
        start = self._line_starts[line - 1]
        end = self._line_starts[line] - 1 if line < len(self._line_starts) else len(self.text)
        return self.text[start:end].rstrip("\r")

    def span(self, start: int, end: int) -> Span:
        """The :class:`Span` of characters ``[start, end)``."""
        line, col = self.position(start)
        end_line, end_col = self.position(end)
        return Span(self.source_name, line, col, end_line, end_col,
                    self.byte_offset(start), self.byte_offset(end))

    def char_range(self, span: Span) -> tuple[int, int]:
        """Character offsets ``[start, end)`` of ``span`` (from its line/column fields)."""
        return self.offset(span.line, span.column), self.offset(span.end_line, span.end_column)
