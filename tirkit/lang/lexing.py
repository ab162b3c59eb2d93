"""Token-level helpers of the TVMScript grammar: file-coordinate spans, comments and the
indentation post-lexer (TVM itself relies on Python's ``tokenize`` for all of this).

The Lark lexer of ``tvmscript.lark`` yields tokens whose positions are character offsets into
the text of one unit.  :class:`SpanMaker` turns them into :class:`~tirkit.ir.span.Span` objects
in the coordinates of the whole file; :class:`IndentProcessor` turns line breaks into
``_NEWLINE``/``_INDENT``/``_DEDENT`` tokens the way Python's tokenizer does, reporting bad
dedents as diagnostics instead of raising.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from typing import Iterable, Iterator

from lark import Lark, Token

from ..ir.diagnostics import Diagnostic
from ..ir.span import LineIndex, Span
from .lex_dispatch import DispatchTable

OPEN_BRACKETS = frozenset(("LPAR", "LSQB", "LBRACE"))
CLOSE_BRACKETS = frozenset(("RPAR", "RSQB", "RBRACE"))
_PAIRS = {"LPAR": "RPAR", "LSQB": "RSQB", "LBRACE": "RBRACE"}
TAB_SIZE = 8
_BLANK_RUN = "[\\t\\f ]*"


@dataclass(frozen=True, slots=True)
class Comment:
    """A ``# ...`` comment of TVMScript source (TVM keeps none; its printer emits comments from
    IR annotations).  ``text`` includes the ``#``; ``own_line`` is True for a comment alone on its
    line and False for a trailing comment after code."""

    span: Span
    text: str
    own_line: bool


class SpanMaker:
    """Makes file-coordinate :class:`Span` objects for character offsets into the text of one
    unit that starts at character ``base`` of the file indexed by ``index`` (no TVM
    counterpart; TVM's parser shifts ``ast`` line numbers by the function's first line).

    Positions are computed from the unit's own line table, so a span costs two bisections;
    byte offsets of non-ASCII lines are computed from per-line byte starts.
    """

    __slots__ = ("name", "text", "_starts", "_line0", "_col0", "_byte0", "_ascii",
                 "_line_bytes", "_line_ascii")

    def __init__(self, index: LineIndex, base: int = 0, text: str | None = None) -> None:
        self.name = index.source_name
        self.text = text if text is not None else index.text[base:]
        self._line0, self._col0 = index.position(base)
        self._byte0 = index.byte_offset(base)
        starts = [0]
        find = self.text.find
        pos = find("\n")
        while pos != -1:
            starts.append(pos + 1)
            pos = find("\n", pos + 1)
        self._starts = starts
        self._ascii = self.text.isascii()
        self._line_bytes: list[int] = []
        self._line_ascii: list[bool] = []
        if not self._ascii:
            self._index_bytes()

    def _index_bytes(self) -> None:
        total, text, starts = 0, self.text, self._starts
        for i, start in enumerate(starts):
            end = starts[i + 1] if i + 1 < len(starts) else len(text)
            line = text[start:end]
            self._line_bytes.append(total)
            self._line_ascii.append(line.isascii())
            total += len(line.encode("utf-8"))

    def _byte(self, pos: int, line: int) -> int:
        start = self._starts[line]
        if self._line_ascii[line]:
            return self._byte0 + self._line_bytes[line] + pos - start
        return self._byte0 + self._line_bytes[line] + len(self.text[start:pos].encode("utf-8"))

    def span(self, start: int, end: int) -> Span:
        """The span of unit characters ``[start, end)``."""
        starts = self._starts
        first = bisect_right(starts, start) - 1
        if end == start or first + 1 == len(starts) or end < starts[first + 1]:
            last = first  # on the line of ``start`` (most tokens and nodes)
        else:
            last = bisect_right(starts, end) - 1
        col = start - starts[first] + (self._col0 if first == 0 else 0)
        end_col = end - starts[last] + (self._col0 if last == 0 else 0)
        line0 = self._line0
        if self._ascii:
            byte0 = self._byte0
            return Span(self.name, line0 + first, col, line0 + last, end_col,
                        byte0 + start, byte0 + end)
        return Span(self.name, line0 + first, col, line0 + last, end_col,
                    self._byte(start, first), self._byte(end, last))

    def start_of(self, span: Span) -> int:
        """Unit character offset where ``span`` (made by this maker) starts."""
        line = span.line - self._line0
        return self._starts[line] + span.column - (self._col0 if line == 0 else 0)

    def end_of(self, span: Span) -> int:
        """Unit character offset where ``span`` (made by this maker) ends."""
        line = span.end_line - self._line0
        return self._starts[line] + span.end_column - (self._col0 if line == 0 else 0)

    def token(self, tok: Token) -> Span:
        """The span of a Lark token."""
        return self.span(tok.start_pos, tok.end_pos)  # type: ignore[arg-type]  # set by lexer

    def point(self, offset: int) -> Span:
        """A zero-width span at unit character ``offset``."""
        return self.span(offset, offset)


class Scanner:
    """The lexer of the grammar of record: one regular expression made of the terminals of
    ``tvmscript.lark`` in Lark's own order (priority, then length), keywords split off the
    ``NAME`` matches as Lark does (no TVM counterpart: TVM uses Python's tokenizer).

    It yields the same tokens as Lark's basic lexer, without line bookkeeping (spans come
    from :class:`SpanMaker`), and collects comments separately.
    """

    def __init__(self, lark: Lark) -> None:
        lexer = lark._build_lexer()  # pylint: disable=protected-access
        scanner = lexer.scanner
        alternatives = [f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in scanner.terminals]
        # Leading blanks are skipped by the same match (they are an ignored terminal).
        self.pattern = re.compile(f"{_BLANK_RUN}(?:{'|'.join(alternatives)})")
        # the same, restricted to the terminals that may start with the character after the
        # blanks (see lex_dispatch): most tokens try a handful of alternatives instead of 63
        self.by_char = DispatchTable(_BLANK_RUN, alternatives, self.pattern)
        self.ignore = frozenset(lexer.ignore_types) - {"COMMENT"}
        unless = getattr(lexer.callback["NAME"], "scanner").terminals
        self.keywords = {t.pattern.value: t.name for t in unless}

    def tokens(self, text: str, comments: list[Token]) -> list[Token]:
        """All tokens of ``text`` (comments go to ``comments``); total: a character that
        starts no token becomes a ``BAD_CHAR`` token."""
        full, ignore, keywords = self.pattern, self.ignore, self.keywords
        by_char = self.by_char
        new = Token._future_new  # pylint: disable=protected-access
        make = str.__new__  # a Token is made in line below, as Token._future_new makes it
        out: list[Token] = []
        pos, size = 0, len(text)
        while pos < size:
            at = pos
            while at < size and text[at] in " \t\f":
                at += 1
            found = (by_char[text[at]] if at < size else full).match(text, pos)
            if found is None:       # a lone carriage return, or blanks at the very end
                pos = _skip_blanks(text, pos)
                if pos < size:
                    out.append(new("BAD_CHAR", text[pos], pos, None, None, None, None, pos + 1))
                    pos += 1
                continue
            kind, end = found.lastgroup or "", found.end()
            if kind == "LINE_CONT" and out and out[-1].type == "_NEWLINE" \
                    and text[found.start(kind) - 1] == "\n":
                out[-1] = _continued_newline(out[-1], text, end)
            elif kind not in ignore:
                start = found.start(kind)
                value = text[start:end]
                if kind == "NAME":
                    kind = keywords.get(value, kind)
                tok = make(Token, value)
                tok.type, tok.start_pos, tok.value, tok.end_pos = kind, start, value, end
                tok.line = tok.column = tok.end_line = tok.end_column = None
                (comments if kind == "COMMENT" else out).append(tok)
            pos = end
        return out


def _continued_newline(newline: Token, text: str, end: int) -> Token:
    """A line whose first character is a backslash continuation is blank for indentation
    purposes (as in CPython's tokenizer): the indentation is that of the continued line."""
    blank_end = _skip_blanks(text, end)
    return Token._future_new(  # pylint: disable=protected-access
        "_NEWLINE", "\n" + text[end:blank_end], newline.start_pos, None, None, None, None,
        blank_end)


def _skip_blanks(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in " \t\f":
        pos += 1
    return pos


def indent_width(whitespace: str) -> int:
    """Width of leading white space, tabs advancing to the next multiple of 8 (as Python)."""
    width = 0
    for char in whitespace:
        if char == "\t":
            width = (width // TAB_SIZE + 1) * TAB_SIZE
        elif char == " ":
            width += 1
    return width


def _synthetic(kind: str, at: Token, end: bool = False) -> Token:
    pos = at.end_pos if end else at.start_pos
    line = at.end_line if end else at.line
    col = at.end_column if end else at.column
    return Token(kind, "", pos, line, col, line, col, pos)


class IndentProcessor:
    """Post-lexer that makes Python's block structure explicit (lark's ``Indenter``, made
    total; TVM uses Python's own tokenizer).

    - line breaks inside brackets are dropped; runs of blank and comment-only lines collapse
      into one ``_NEWLINE``; leading ones are dropped;
    - ``base_indent=None`` (a unit): the indentation of the first token is the base level, so
      a unit may be uniformly indented; ``base_indent=0`` (a file): an indented first line is
      an unexpected indent;
    - deeper lines open ``_INDENT``, shallower ones close ``_DEDENT``; a dedent to a width
      that matches no enclosing level is reported ("unindent does not match any outer
      indentation level") and treated as the nearest enclosing level; as in Python, widths
      must compare the same with tabs counted as 8 columns and as 1 ("inconsistent use of tabs
      and spaces in indentation");
    - the stream always ends with ``_NEWLINE`` and the ``_DEDENT`` tokens closing open blocks.

    Closing brackets are matched: a stray one ("unmatched ')'") or a mismatched one ("closing
    parenthesis ')' does not match opening parenthesis '{'") is reported, and its position
    added to ``flagged``.  After the stream is exhausted, ``unclosed`` lists the opening bracket
    tokens never closed.
    """

    def __init__(self, text: str, spans: SpanMaker, diagnostics: list[Diagnostic],
                 base_indent: int | None = None) -> None:
        self.text = text
        self.spans = spans
        self.diagnostics = diagnostics
        self.base_indent = base_indent
        self.levels: list[tuple[int, int]] = []
        self.unclosed: list[Token] = []
        self.flagged: set[int] = set()

    def _error(self, tok: Token, message: str) -> None:
        self.diagnostics.append(Diagnostic.error("syntax", self.spans.token(tok), message))

    def _start(self, tok: Token) -> Iterator[Token]:
        line_start = self.text.rfind("\n", 0, tok.start_pos) + 1
        width = _widths(self.text[line_start:tok.start_pos])
        if self.base_indent is None:
            self.levels = [width]
            return
        self.levels = [(self.base_indent, self.base_indent)]
        yield from self._block_tokens(width, tok)

    def _block_tokens(self, width: tuple[int, int], nxt: Token) -> Iterator[Token]:
        levels = self.levels
        if width[0] > levels[-1][0]:
            if width[1] <= levels[-1][1]:
                self._error(nxt, "inconsistent use of tabs and spaces in indentation")
            levels.append(width)
            yield _synthetic("_INDENT", nxt)
            return
        while width[0] < levels[-1][0] and len(levels) > 1:
            levels.pop()
            yield _synthetic("_DEDENT", nxt)
        if width[0] != levels[-1][0]:
            self._error(nxt, "unindent does not match any outer indentation level")
        elif width[1] != levels[-1][1]:
            self._error(nxt, "inconsistent use of tabs and spaces in indentation")

    def _close(self, tok: Token) -> None:
        """Match a closing bracket; a stray or mismatched one is reported here (``flagged``
        tells the parser not to report it again) and, when mismatched, every bracket open on
        the line is considered closed so that the next line starts a new statement."""
        brackets = self.unclosed
        if not brackets:
            self._error(tok, f"unmatched '{tok}'")
            self.flagged.add(int(tok.start_pos or 0))
        elif _PAIRS[brackets[-1].type] != tok.type:
            opening = brackets[-1]
            self._error(tok, f"closing parenthesis '{tok}' does not match opening "
                             f"parenthesis '{opening}'")
            self.flagged.add(int(tok.start_pos or 0))
            brackets.clear()
        else:
            brackets.pop()

    def process(self, tokens: Iterable[Token]) -> Iterator[Token]:
        """Yield the parser's token stream for the lexer's ``tokens``."""
        brackets = self.unclosed
        pending: Token | None = None
        last: Token | None = None
        for tok in tokens:
            kind = tok.type
            if kind == "_NEWLINE":
                if not brackets and last is not None:
                    pending = tok if pending is None else _merge_newlines(pending, tok)
                continue
            if pending is not None:
                yield pending
                yield from self._block_tokens(_widths(pending.value.rsplit("\n", 1)[-1]), tok)
                pending = None
            elif last is None:
                yield from self._start(tok)
            if kind in OPEN_BRACKETS:
                brackets.append(tok)
            elif kind in CLOSE_BRACKETS:
                self._close(tok)
            last = tok
            yield tok
        if last is None:
            return
        yield pending if pending is not None else _synthetic("_NEWLINE", last, end=True)
        for _ in range(len(self.levels) - 1):
            yield _synthetic("_DEDENT", last, end=True)


def _widths(whitespace: str) -> tuple[int, int]:
    """Indentation width with tabs to multiples of 8, and with tabs as 1 column."""
    return indent_width(whitespace), whitespace.count(" ") + whitespace.count("\t")


def _merge_newlines(first: Token, later: Token) -> Token:
    """One ``_NEWLINE`` positioned at ``first`` carrying the indentation of ``later``."""
    tok = Token("_NEWLINE", "\n" + later.value.rsplit("\n", 1)[-1], first.start_pos, first.line,
                first.column, later.end_line, later.end_column, later.end_pos)
    return tok


def comment_of(tok: Token, text: str, spans: SpanMaker) -> Comment:
    """The :class:`Comment` of a ``COMMENT`` token of ``text``."""
    line_start = text.rfind("\n", 0, tok.start_pos) + 1
    own_line = not text[line_start:tok.start_pos].strip()
    return Comment(spans.token(tok), str(tok), own_line)
