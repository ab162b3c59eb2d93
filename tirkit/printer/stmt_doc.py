"""Statement docs and the final layout: lines, indented scopes, comments, blank lines, carets.

Mirrors TVM's ``StmtDoc`` family (``AssignDoc``, ``ForDoc``, ``ScopeDoc``, ``FunctionDoc``,
``ClassDoc``, ``CommentDoc``) and ``DocToPythonScript``: every statement is either one line (an
expression doc that may wrap) or a header line ending in ``:`` followed by an indented body.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterable, Sequence

from .doc import Doc, Mark, Text, render


@dataclass
class SDoc:
    """Base of statement docs. ``keys``: ids of IR objects whose whole statement is underlined;
    ``leading``/``trailing``: comments printed before / after the (header) line; ``after``:
    comment lines printed after the whole statement. They are empty tuples by default (shared:
    most statements have none, and four new lists per line cost more than the line's text);
    :meth:`tirkit.printer.context.Printer.stmts` replaces them when it attaches some."""

    keys: Sequence[int] = field(default=(), kw_only=True)
    leading: Sequence[str] = field(default=(), kw_only=True)
    trailing: Sequence[str] = field(default=(), kw_only=True)
    after: Sequence[str] = field(default=(), kw_only=True)


@dataclass
class LineDoc(SDoc):
    """One statement on one (possibly wrapped) line: ``A[i] = v``, ``T.evaluate(0)``."""

    doc: Doc


@dataclass
class ScopeDoc(SDoc):
    """``header:`` and an indented ``body`` (for, while, if, with, def, class)."""

    header: Doc
    body: list[SDoc]
    decorators: list[Doc] = field(default_factory=list)
    orelse: list[SDoc] | None = None  # ``else:`` branch of an ``if``
    #: an ``orelse`` that is one ``if`` prints as ``elif`` (tirfmt: the user wrote it so)
    elif_: bool = False


@dataclass
class CommentDoc(SDoc):
    """``# text`` on its own line (``text`` empty: a blank line)."""

    text: str


def line(doc: Doc | str, key: int | None = None) -> LineDoc:
    """A one-line statement doc."""
    d = Text(doc) if isinstance(doc, str) else doc
    return LineDoc(d, keys=[key] if key is not None else [])


@dataclass
class Layout:
    """Output of :func:`layout`: text lines and underline spans ``(line, start, end)``."""

    lines: list[str] = field(default_factory=list)
    underlines: dict[int, list[tuple[int, int]]] = field(default_factory=dict)


class _Ctx:
    def __init__(self, indent: int, width: int, underline: frozenset[int]) -> None:
        self.indent = indent
        self.width = width
        self.underline = underline
        self.out = Layout()

    def emit_doc(self, doc: Doc, level: int, suffix: str = "", keys: Sequence[int] = ()) -> None:
        pad = " " * (self.indent * level)
        width = max(self.width - len(pad) - len(suffix), 20)
        if type(doc) is Text and len(doc.text) <= width and not keys:  # most lines: one text
            self.out.lines.append(pad + doc.text + suffix)
            return
        r = render(doc, width)
        first = len(self.out.lines)
        for i, text in enumerate(r.lines):
            self.out.lines.append(pad + text + (suffix if i == len(r.lines) - 1 else ""))
        for key, spans in r.marks.items():
            if key in self.underline:
                for ln, s, e in spans:
                    self._mark(first + ln, len(pad) + s, len(pad) + e)
        if any(k in self.underline for k in keys):
            for ln in range(first, len(self.out.lines)):
                self._mark_line(ln)

    def _mark(self, ln: int, start: int, end: int) -> None:
        self.out.underlines.setdefault(ln, []).append((start, end))

    def _mark_line(self, ln: int) -> None:
        text = self.out.lines[ln]
        start = len(text) - len(text.lstrip(" "))
        if len(text) > start:
            self._mark(ln, start, len(text))


def _trailing(sdoc: SDoc) -> str:
    return "".join([f"  # {c}" for c in sdoc.trailing]) if sdoc.trailing else ""


def _emit(ctx: _Ctx, docs: Iterable[SDoc], level: int) -> None:
    for sdoc in docs:
        pad = " " * (ctx.indent * level)
        for c in sdoc.leading:
            ctx.out.lines.append(f"{pad}# {c}" if c else f"{pad}#")
        if isinstance(sdoc, CommentDoc):
            ctx.out.lines.append(f"{pad}# {sdoc.text}" if sdoc.text else "")
        elif isinstance(sdoc, LineDoc):
            ctx.emit_doc(sdoc.doc, level, _trailing(sdoc), sdoc.keys)
        elif isinstance(sdoc, ScopeDoc):
            _emit_scope(ctx, sdoc, level)
        for c in sdoc.after:
            ctx.out.lines.append(f"{pad}# {c}" if c else f"{pad}#")


def _emit_scope(ctx: _Ctx, sdoc: ScopeDoc, level: int) -> None:
    first = len(ctx.out.lines)
    for deco in sdoc.decorators:
        ctx.emit_doc(Text("@") + deco, level)
    ctx.emit_doc(sdoc.header, level, ":" + _trailing(sdoc))
    _emit(ctx, sdoc.body or [LineDoc(Text("pass"))], level + 1)
    nested = sdoc.orelse[0] if sdoc.elif_ and sdoc.orelse and len(sdoc.orelse) == 1 else None
    if isinstance(nested, ScopeDoc) and not nested.decorators:
        _emit(ctx, [replace(nested, header=Text("el") + nested.header)], level)
    elif sdoc.orelse:
        ctx.out.lines.append(" " * (ctx.indent * level) + "else:")
        _emit(ctx, sdoc.orelse, level + 1)
    if any(k in ctx.underline for k in sdoc.keys):
        for ln in range(first, len(ctx.out.lines)):
            ctx.out.underlines.pop(ln, None)
            ctx._mark_line(ln)  # pylint: disable=protected-access


def layout(docs: Sequence[SDoc], indent: int, width: int,
           underline: frozenset[int] = frozenset()) -> Layout:
    """Lay statement docs out with ``indent`` spaces per level at ``width`` columns."""
    ctx = _Ctx(indent, width, underline)
    _emit(ctx, docs, 0)
    return ctx.out


def to_text(lay: Layout, print_line_numbers: bool = False) -> str:
    """Join laid-out lines, adding a caret line under every underlined line (as TVM's
    ``path_to_underline``) and optional ``NNN `` line numbers."""
    width = len(str(len(lay.lines)))
    out: list[str] = []
    for i, text in enumerate(lay.lines):
        prefix = f"{i + 1:>{width}} " if print_line_numbers else ""
        out.append(prefix + text)
        spans = lay.underlines.get(i)
        if spans:
            carets = [" "] * max(e for _, e in spans)
            for s, e in spans:
                carets[s:e] = "^" * (e - s)
            out.append(" " * len(prefix) + "".join(carets).rstrip())
    return "\n".join(out)


def mark(key: int | None, doc: Doc) -> Doc:
    """Wrap ``doc`` in a :class:`Mark` when ``key`` is given."""
    return Mark(key, doc) if key is not None else doc
