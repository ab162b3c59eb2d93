"""Parse TVMScript source text with the grammar of record (``tvmscript.lark``) into the
:mod:`tirkit.lang.syntax` tree, collecting comments and syntax diagnostics.

TVM's parser hands the source to Python's ``ast.parse`` and stops at the first
``SyntaxError``; here the LALR(1) table Lark builds from the grammar (run by
:mod:`tirkit.lang.lalr`) reports every syntax error of a unit: after an
error it discards the broken statement (classic yacc-style recovery: pop the parser stack to
the innermost point where a statement may start, skip the rest of the offending line, and the
indented block under a broken header) and carries on with the next one.

Entry points: :func:`parse_unit` (one decorated def or class, possibly indented, taken out of
a file) and :func:`parse_module` (a whole file).  Both return a :class:`ParseResult` whose
spans are in the coordinates of the file.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Optional

from lark import Lark, Token
from lark.lark import PostLex

from ..ir.diagnostics import Diagnostic
from ..ir.span import LineIndex, Span
from . import syntax as S
from .lalr import LalrState, ParseError, Tables
from .lexing import Comment, IndentProcessor, Scanner, SpanMaker, comment_of
from .limits import check_text
from .tree_builder import CONTEXT, TreeBuilder

__all__ = ["ParseResult", "parse_unit", "parse_module", "grammar_text", "GRAMMAR_PATH"]

#: The grammar of record.
GRAMMAR_PATH = Path(__file__).with_name("tvmscript.lark")

_ERROR_TERMINALS = ("BAD_STRING", "BAD_LONG_STRING", "BAD_CHAR")
_LOCK = threading.RLock()
_PARSER: Optional[Lark] = None
_TABLES: Optional[Tables] = None
_SCANNER: Optional[Scanner] = None


@dataclass(frozen=True, slots=True)
class ParseResult:
    """The outcome of parsing TVMScript text (TVM: the ``doc`` AST of
    ``tvm.script.parser.core.parser.parse``, plus what TVM does not keep).

    ``tree`` is ``None`` only if nothing could be parsed; ``comments`` are in source order;
    ``diagnostics`` are ``"syntax"`` errors in source order (empty on success).
    """

    tree: Optional[S.Module]
    comments: tuple[Comment, ...] = field(default=())
    diagnostics: tuple[Diagnostic, ...] = field(default=())

    @property
    def ok(self) -> bool:
        """True when there is no diagnostic."""
        return not self.diagnostics


class _KeepErrorTerminals(PostLex):
    """Lark drops terminals no rule uses; this keeps the error terminals in the lexer."""

    always_accept = _ERROR_TERMINALS

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        return stream


def grammar_text() -> str:
    """The text of ``tvmscript.lark`` (no TVM counterpart: TVM's grammar is Python's)."""
    return GRAMMAR_PATH.read_text(encoding="utf-8")


def get_parser() -> Lark:
    """The process-wide Lark LALR parser of the grammar of record (built once, cached on
    disk by Lark), with the syntax-tree builder as its inline transformer."""
    global _PARSER, _TABLES, _SCANNER  # pylint: disable=global-statement
    with _LOCK:
        if _PARSER is None:
            parser = Lark(grammar_text(), start="file_input", parser="lalr", lexer="basic",
                          keep_all_tokens=True, maybe_placeholders=False,
                          postlex=_KeepErrorTerminals(), cache=True)
            _TABLES = Tables(parser, TreeBuilder())
            _SCANNER = Scanner(parser)
            _PARSER = parser
        return _PARSER


def _tables() -> Tables:
    get_parser()
    assert _TABLES is not None
    return _TABLES


_LAYOUT = frozenset(("_NEWLINE", "_INDENT", "_DEDENT", "$END"))
_NAMED_TERMINALS = {
    "NAME": "a name", "STRING": "a string", "LONG_STRING": "a string",
    "DEC_NUMBER": "a number", "_NEWLINE": "a new line", "_INDENT": "an indented block",
    "_DEDENT": "a dedent", "$END": "the end of the input",
}
_MISSING_CLOSER = {"LPAR": "'(' was never closed", "LSQB": "'[' was never closed",
                   "LBRACE": "'{' was never closed"}
_MAX_RECOVERIES = 10_000


def _display(parser: Lark, name: str) -> str:
    if name in _NAMED_TERMINALS:
        return _NAMED_TERMINALS[name]
    try:
        pattern = parser.get_terminal(name).pattern
    except KeyError:
        return name
    return f"'{pattern.value}'" if pattern.type == "str" else name.lower()


class _Driver:
    """Feeds the token stream to the LALR tables, recovering after each error."""

    def __init__(self, parser: Lark, spans: SpanMaker, indenter: IndentProcessor,
                 diagnostics: list[Diagnostic]) -> None:
        self.parser = parser
        self.spans = spans
        self.indenter = indenter
        self.diagnostics = diagnostics
        self.state = LalrState(_tables())
        self.prev: Optional[Token] = None
        self.last_error = -1

    def run(self, tokens: list[Token]) -> Optional[S.Module]:
        """Parse ``tokens`` (the indentation post-lexer's output); the module or ``None``."""
        i = 0
        while i < len(tokens):
            try:
                self.state.feed_all(tokens, i)
            except ParseError as err:
                self._note_prev(tokens, i, err.index)
                self._report(tokens, err.index, err.expected)
                i = self._recover(tokens, err.index)
                continue
            self._note_prev(tokens, i, len(tokens))
            break
        return self._finish(tokens)

    def _note_prev(self, tokens: list[Token], start: int, end: int) -> None:
        """``prev`` after ``tokens[start:end]`` were shifted: the last that is not layout."""
        for k in range(end - 1, start - 1, -1):
            if tokens[k].type not in _LAYOUT:
                self.prev = tokens[k]
                return

    def _finish(self, tokens: list[Token]) -> Optional[S.Module]:
        pos = tokens[-1].end_pos if tokens else 0
        end = Token("$END", "", pos, None, None, None, None, pos)
        for _ in range(64):
            try:
                return self.state.finish(end)
            except ParseError as err:
                if not self.diagnostics:
                    self._report([end], 0, err.expected)
                if not self._close_block():
                    self.state.shift_statement()
        return None

    def _close_block(self) -> bool:
        """Feed a synthetic ``_NEWLINE``/``_DEDENT`` if the parser waits for one."""
        for kind in ("_NEWLINE", "_DEDENT"):
            if self.state.accepts(kind):
                self.state.feed(Token(kind, "", 0, None, None, None, None, 0))
                return True
        return False

    def _recover(self, tokens: list[Token], i: int) -> int:
        """Resynchronise after an error at ``tokens[i]``; the index to resume from."""
        self.state.shift_statement()
        tok = tokens[i]
        repeated = i == self.last_error
        self.last_error = i
        at_line_start = self.prev is None or (i > 0 and tokens[i - 1].type in _LAYOUT)
        if at_line_start and tok.type not in _LAYOUT and not repeated:
            return i            # the broken part was the header before; retry this statement
        if tok.type == "_INDENT":
            return _skip_block(tokens, i)
        resume = _skip_line(tokens, i)
        if resume == i and repeated:
            resume += 1         # guarantee progress
        if resume < len(tokens) and tokens[resume].type == "_INDENT":
            resume = _skip_block(tokens, resume)
        return resume

    # ------------------------------------------------------------------ messages

    def _report(self, tokens: list[Token], i: int, expected: set[str]) -> None:
        tok = tokens[i]
        if tok.type not in _LAYOUT and tok.start_pos in self.indenter.flagged:
            return              # the bracket matcher has said it already
        message, span = self._message(tok, expected)
        if tok.type == "_INDENT" and i + 1 < len(tokens):
            span = self._word(tokens[i + 1])
        if span is None:        # a missing piece: point right after the previous token
            at = int((self.prev.end_pos if self.prev is not None else tok.start_pos) or 0)
            text = self.spans.text
            width = 1 if at < len(text) and text[at] not in "\r\n" else 0
            span = self.spans.span(at, at + width)
        self.diagnostics.append(Diagnostic.error("syntax", span, message))

    def _word(self, tok: Token) -> Span:
        """The span from ``tok`` to the next blank: what carets underline for errors about a
        whole line (unexpected indent, missing block, unterminated string)."""
        text, start = self.spans.text, int(tok.start_pos or 0)
        end = start + 1
        while end < len(text) and text[end] not in " \t\f\r\n":
            end += 1
        return self.spans.span(start, end)

    def _message(self, tok: Token, expected: set[str]):
        kind = tok.type
        if kind == "BAD_STRING":
            return "unterminated string literal", self._word(tok)
        if kind == "BAD_LONG_STRING":
            return ("unterminated triple-quoted string literal",
                    self.spans.point(int(tok.start_pos or 0)))
        if kind == "BAD_CHAR":
            return f"invalid character '{tok}' (U+{ord(tok[0]):04X})", self.spans.token(tok)
        if kind == "_INDENT":
            return "unexpected indent", None
        if "_INDENT" in expected:
            return "expected an indented block", (None if kind in _LAYOUT else self._word(tok))
        if kind in _LAYOUT:
            return self._layout_message(tok, expected)
        if len(expected) == 1:
            (name,) = expected
            return f"expected {_display(self.parser, name)}", self.spans.token(tok)
        return f"unexpected '{tok}'", self.spans.token(tok)

    def _layout_message(self, tok: Token, expected: set[str]):
        unclosed = self.indenter.unclosed
        if unclosed and tok.value == "":
            opening = unclosed[-1]
            return _MISSING_CLOSER[opening.type], self.spans.token(opening)
        if "COLON" in expected:
            return "expected ':'", None
        if len(expected) == 1:
            (name,) = expected
            return f"expected {_display(self.parser, name)}", None
        if "NAME" in expected:
            where = "line" if tok.type == "_NEWLINE" else "input"
            return f"unexpected end of {where}: expected an expression", None
        if tok.type == "_DEDENT":
            return "unexpected dedent", None
        where = "line" if tok.type == "_NEWLINE" else "input"
        return f"unexpected end of {where}", None


def _skip_line(tokens: list[Token], i: int) -> int:
    """Index after the ``_NEWLINE`` ending the logical line at ``i`` (nested blocks skipped;
    stops before a ``_DEDENT`` that closes the enclosing block)."""
    depth = 0
    while i < len(tokens):
        kind = tokens[i].type
        if kind == "_INDENT":
            depth += 1
        elif kind == "_DEDENT":
            if depth == 0:
                return i
            depth -= 1
        elif kind == "_NEWLINE" and depth == 0:
            return i + 1
        i += 1
    return i


def _skip_block(tokens: list[Token], i: int) -> int:
    """Index after the ``_DEDENT`` matching the ``_INDENT`` at ``i``."""
    depth = 0
    while i < len(tokens):
        kind = tokens[i].type
        if kind == "_INDENT":
            depth += 1
        elif kind == "_DEDENT":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return i


def _parse(text: str, spans: SpanMaker, base_indent: Optional[int]) -> ParseResult:
    parser = get_parser()
    diagnostics: list[Diagnostic] = []
    CONTEXT.spans, CONTEXT.text, CONTEXT.diagnostics = spans, text, diagnostics
    CONTEXT.bare_tuples = set()
    assert _SCANNER is not None
    comment_tokens: list[Token] = []
    try:
        indenter = IndentProcessor(text, spans, diagnostics, base_indent)
        tokens = list(indenter.process(_SCANNER.tokens(text, comment_tokens)))
        tree = _Driver(parser, spans, indenter, diagnostics).run(tokens)
        comments = tuple(comment_of(tok, text, spans) for tok in comment_tokens)
    finally:
        CONTEXT.spans, CONTEXT.text, CONTEXT.diagnostics = None, "", []  # type: ignore[assignment]
        CONTEXT.bare_tuples = set()
    if tree is None and not diagnostics:
        tree = S.Module((), span=spans.span(0, len(text)))
    diagnostics.sort(key=lambda d: (d.span.line, d.span.column) if d.span else (0, 0))
    return ParseResult(tree, comments, tuple(diagnostics))


def parse_unit(text: str, *, line_index: Optional[LineIndex] = None, base_offset: int = 0,
               source_name: str = "<string>") -> ParseResult:
    """Parse one TVMScript unit: a decorated ``def`` or ``class`` (TVM: the
    ``ast.parse`` + ``doc.to_doc`` step of ``tvm.script.parser.core.parser.parse``).

    ``text`` starts at column 0 of its first line and may be uniformly indented (a method of
    a class, a prim_func nested in a function).  ``line_index`` indexes the whole file and
    ``base_offset`` is the character offset of ``text`` in it, so every span is in file
    coordinates; without ``line_index`` the text is its own file named ``source_name``.
    Never raises on malformed input: syntax errors become ``diagnostics`` (all of them, one
    per broken statement) and the statements that parsed still form ``tree``.
    """
    return _parse_locked(text, line_index, base_offset, source_name, None)


def _parse_locked(text: str, line_index: Optional[LineIndex], base_offset: int,
                  source_name: str, base_indent: Optional[int]) -> ParseResult:
    index = line_index if line_index is not None else LineIndex(text, source_name)
    too_big = check_text(text, index, base_offset)
    if too_big is not None:  # before Lark: bounded time, no deep recursion in the tree builder
        return ParseResult(None, (), (too_big,))
    with _LOCK:
        return _parse(text, SpanMaker(index, base_offset, text), base_indent)


def parse_module(text: str, *, line_index: Optional[LineIndex] = None, base_offset: int = 0,
                 source_name: str = "<string>") -> ParseResult:
    """Parse a whole file of TVMScript units (imports, module constants, decorated defs and
    classes) -- Python's ``ast.parse`` over the TVMScript subset; same contract as
    :func:`parse_unit`, except that the text must not be indented."""
    return _parse_locked(text, line_index, base_offset, source_name, 0)
