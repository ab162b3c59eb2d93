"""Positions between tirkit's coordinates and LSP's (no TVM counterpart).

tirkit spans count columns in code points (:class:`~tirkit.ir.span.Span`); LSP counts them in
the code units of the negotiated position encoding, UTF-16 unless the client asked otherwise.
:class:`PositionMap` converts both ways for one document text.
"""
from __future__ import annotations

import bisect

from lsprotocol import types

from tirkit.ir.span import Span

UTF16, UTF8, UTF32 = "utf-16", "utf-8", "utf-32"


def _units(text: str, encoding: str) -> int:
    """Number of code units of ``text`` in ``encoding``."""
    if encoding == UTF32 or text.isascii():
        return len(text)
    if encoding == UTF8:
        return len(text.encode("utf-8"))
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def _chars_for_units(line: str, units: int, encoding: str) -> int:
    """The code-point column of code-unit column ``units`` in ``line`` (clamped to the line)."""
    if encoding == UTF32 or line.isascii():
        return min(units, len(line))
    count = 0
    for i, ch in enumerate(line):
        if count >= units:
            return i
        count += _units(ch, encoding)
    return len(line)


class PositionMap:
    """Converts character offsets / tirkit (line, column) pairs of ``text`` to LSP positions and
    back, for ``encoding`` (``"utf-16"``, ``"utf-8"`` or ``"utf-32"``)."""

    __slots__ = ("text", "encoding", "_starts")

    def __init__(self, text: str, encoding: str = UTF16) -> None:
        self.text = text
        self.encoding = str(encoding or UTF16)
        starts = [0]
        pos = text.find("\n")
        while pos != -1:
            starts.append(pos + 1)
            pos = text.find("\n", pos + 1)
        self._starts = starts

    def line_count(self) -> int:
        """Number of lines (a final line without newline counts)."""
        return len(self._starts)

    def line_text(self, line0: int) -> str:
        """Text of 0-based line ``line0`` without its terminator ("" past the end)."""
        if line0 < 0 or line0 >= len(self._starts):
            return ""
        start = self._starts[line0]
        end = self._starts[line0 + 1] - 1 if line0 + 1 < len(self._starts) else len(self.text)
        return self.text[start:end].rstrip("\r")

    def position(self, line: int, column: int) -> types.Position:
        """LSP position of tirkit's 1-based ``line`` and code-point ``column``."""
        text = self.line_text(line - 1)
        return types.Position(line=max(line - 1, 0),
                              character=_units(text[:max(column, 0)], self.encoding))

    def range(self, span: Span) -> types.Range:
        """LSP range of a tirkit :class:`Span`."""
        return types.Range(start=self.position(span.line, span.column),
                           end=self.position(span.end_line, span.end_column))

    def offset_position(self, offset: int) -> types.Position:
        """LSP position of character ``offset``."""
        line = bisect.bisect_right(self._starts, offset)
        return self.position(line, offset - self._starts[line - 1])

    def offset_range(self, start: int, end: int) -> types.Range:
        """LSP range of characters ``[start, end)``."""
        return types.Range(start=self.offset_position(start), end=self.offset_position(end))

    def line_column(self, pos: types.Position) -> tuple[int, int]:
        """tirkit's (1-based line, code-point column) of an LSP position."""
        return pos.line + 1, _chars_for_units(self.line_text(pos.line), pos.character,
                                               self.encoding)

    def char_offset(self, line: int, column: int) -> int:
        """Character offset of tirkit's 1-based ``line`` and code-point ``column``."""
        line = min(max(line, 1), len(self._starts))
        return min(self._starts[line - 1] + max(column, 0), len(self.text))

    def offset(self, pos: types.Position) -> int:
        """Character offset of an LSP position (clamped to the text)."""
        if pos.line >= len(self._starts):
            return len(self.text)
        line, col = self.line_column(pos)
        return self._starts[line - 1] + col
