"""Comments of a TVMScript unit attached to the IR statements they belong to (DESIGN.md
contract 4). No TVM counterpart: TVM's parser drops comments.

Placement rules, on the unit's syntax tree (every statement knows its span):

- an own-line comment before a statement is a *leading* comment of that statement;
- a comment after code on the line where a statement (or a compound statement's header) ends
  is a *trailing* comment of it;
- an own-line comment after the last statement of a body, indented at least as deep as that
  body, is an *after* comment of the body's last statement (printed after it, at its
  indentation);
- comments inside a statement's expression (a call or signature spanning several lines) become
  leading comments of the statement, as do comments between a decorator and its ``def``; the
  unit's own leading comments (printed above its decorator they would leave the unit's range)
  go to the first statement printed in its body.

Then each statement is matched with the IR node printed for it, by span: the table returned is
``{Span: Comments}``, the ``comments`` option of :func:`tirkit.printer.script`. Keys are spans,
so a node derived from a statement by a rewrite that keeps its span (contract 3) keeps its
comments. A statement that has no IR statement of its own (``T.func_attr``, ``T.axis.remap``,
``T.reads``, ``with T.init():``, a dropped ``T.evaluate(0)``) hands its comments on, as leading
comments, to the next statement that is printed, else as *after* comments to the previous one,
else to the enclosing statement.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterator, Sequence

from tirkit.ir.span import LineIndex, Span

__all__ = ["attach_comments", "comment_text", "Placement"]

_BODIES = ("body", "orelse", "finalbody")
_PROBE = "tirkit-comment-probe-"
_PROBE_RE = re.compile(r"#\s*" + _PROBE + r"(\d+)\b")
_ROOT_RE = re.compile(r'^with [A-Za-z_][\w.]*\.s?block\("root"\):?\s*$')


@dataclass
class _Entry:
    """Comments gathered for one syntax statement."""

    leading: list[str] = field(default_factory=list)
    trailing: list[str] = field(default_factory=list)
    after: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.leading or self.trailing or self.after)


@dataclass(frozen=True)
class Placement:
    """Where one comment went: ``stmt`` (a syntax statement) and ``kind`` (``"leading"``,
    ``"trailing"`` or ``"after"``)."""

    stmt: Any
    kind: str
    text: str


def comment_text(raw: str) -> str:
    """The text printed after ``# ``: ``raw`` without its ``#``, one following space and
    trailing whitespace (``"#  x "`` -> ``" x"``; ``"#x"`` -> ``"x"``)."""
    body = raw.rstrip()[1:] if raw.startswith("#") else raw.rstrip()
    return body[1:] if body.startswith(" ") else body


def _children(stmt: Any) -> list[list[Any]]:
    """The statement lists of a compound statement (body, else branch)."""
    out = []
    for name in _BODIES:
        value = getattr(stmt, name, None)
        if isinstance(value, (list, tuple)) and value:
            out.append(list(value))
    return out


def _header_end(stmt: Any, lines: LineIndex) -> int:
    """The line holding the ``:`` of a compound statement (its last header line)."""
    kids = _children(stmt)
    if not kids:
        return stmt.span.end_line
    first = kids[0][0].span.line
    if first == stmt.span.line:
        return first
    for line in range(first - 1, stmt.span.line - 1, -1):
        text = lines.line_text(line).strip()
        if text and not text.startswith("#"):
            return line
    return stmt.span.line


class _Locator:
    """Finds the statement and kind of each comment (see the module docstring)."""

    def __init__(self, unit: Any, lines: LineIndex) -> None:
        self.unit = unit
        self.lines = lines
        self.out: list[Placement] = []

    def place(self, comment: Any) -> None:
        """Record where ``comment`` (a lexing ``Comment``) goes."""
        text = comment_text(comment.text)
        line, col = comment.span.line, comment.span.column
        if line < self.unit.span.line:  # between the decorator(s) and the def / class
            self.out.append(Placement(self.unit, "leading", text))
            return
        self._in_stmt(self.unit, line, col, comment.own_line, text)

    def _in_stmt(self, stmt: Any, line: int, col: int, own: bool, text: str) -> None:
        kids = _children(stmt)
        head = _header_end(stmt, self.lines)
        if not kids or line <= head:
            end = head if kids else stmt.span.end_line
            kind = "trailing" if (not own and line == end) else "leading"
            self.out.append(Placement(stmt, kind, text))
            return
        for body in kids:
            if body[0].span.line <= line <= body[-1].span.end_line:
                self._in_body(body, line, col, own, text)
                return
        # between two bodies (before ``else:``) or after the last one
        before = [b for b in kids if b[-1].span.end_line < line]
        after = [b for b in kids if b[0].span.line > line]
        if after and (not own or self._past_else(before, after, line)):
            self.out.append(Placement(after[0][0], "leading", text))
        else:
            self._gap(before[-1] if before else kids[0], line, col, text)

    def _past_else(self, before: list, after: list, line: int) -> bool:
        """Whether ``line`` comes after the ``else:`` line between two bodies."""
        start = before[-1][-1].span.end_line + 1 if before else line
        for k in range(start, after[0][0].span.line):
            if self.lines.line_text(k).strip().startswith("else"):
                return line > k
        return False

    def _in_body(self, body: list[Any], line: int, col: int, own: bool, text: str) -> None:
        for stmt in body:
            if stmt.span.line <= line <= stmt.span.end_line:
                self._in_stmt(stmt, line, col, own, text)
                return
        self._gap(body, line, col, text)

    def _gap(self, body: list[Any], line: int, col: int, text: str) -> None:
        """A comment on a line of its own between statements of ``body`` (or after them)."""
        prev = [s for s in body if s.span.end_line < line]
        nxt = [s for s in body if s.span.line > line]
        last = prev[-1] if prev else None
        if last is not None and _children(last) and col > last.span.column:
            self._gap(_children(last)[-1], line, col, text)  # deeper: the end of ``last``'s body
        elif nxt:
            self.out.append(Placement(nxt[0], "leading", text))
        else:
            self.out.append(Placement(body[-1], "after", text))


def _walk(stmt: Any) -> Iterator[Any]:
    yield stmt
    for body in _children(stmt):
        for s in body:
            yield from _walk(s)


def _printed_spans(ir: Any, stmts: Sequence[Any], config: dict[str, Any]
                   ) -> tuple[set[Span], str]:
    """The spans among ``stmts`` that the printer prints a statement for: print ``ir`` once with
    a numbered probe comment on every span and read the numbers back."""
    from tirkit.printer import Comments, script  # pylint: disable=import-outside-toplevel

    table = {s.span: Comments([f"{_PROBE}{i}"]) for i, s in enumerate(stmts)}
    text = script(ir, **{**config, "comments": table, "line_length": None})
    found = {int(m.group(1)) for m in _PROBE_RE.finditer(text)}
    return {stmts[i].span for i in found}, text


def _printer_made(text: str, probe_text: str) -> bool:
    """Whether a comment is one the printer writes itself (``# with T.block("root"):`` for the
    implicit root block) and will write again: kept, it would be doubled on each round."""
    if not _ROOT_RE.match(text):
        return False
    return any(_ROOT_RE.match(comment_text(line.strip())) for line in probe_text.splitlines()
               if line.lstrip().startswith("#"))


class _Router:
    """Moves comments of statements that print no IR statement to their neighbours."""

    def __init__(self, unit: Any, printed: set[Span]) -> None:
        self.printed = printed
        self.parent: dict[int, tuple[Any, list[Any]]] = {}
        for stmt in _walk(unit):
            for body in _children(stmt):
                for s in body:
                    self.parent[id(s)] = (stmt, body)

    def route(self, stmt: Any, kind: str) -> tuple[Any, str] | None:
        """The printed statement and kind a comment of ``stmt`` goes to (``None``: nowhere)."""
        while stmt.span not in self.printed:
            up = self.parent.get(id(stmt))
            if up is None:
                return None
            owner, body = up
            i = next(k for k, s in enumerate(body) if s is stmt)
            later = [s for s in body[i + 1:] for s in _walk(s) if s.span in self.printed]
            earlier = [s for s in body[:i] if s.span in self.printed]
            if later and kind != "after":
                return later[0], "leading"
            if earlier:
                return earlier[-1], "after"
            if later:
                return later[0], "leading"
            stmt, kind = owner, ("after" if kind == "after" else "leading")
        return stmt, kind


def attach_comments(unit: Any, comments: Sequence[Any], ir: Any, lines: LineIndex,
                    printer_config: dict[str, Any] | None = None) -> dict[Span, Any]:
    """The comment table of one parsed unit: ``{Span: Comments}`` for
    :func:`tirkit.printer.script`'s ``comments`` option.

    Args:
        unit: the unit's syntax statement (``FunctionDef`` / ``ClassDef`` of
            :mod:`tirkit.lang.syntax`).
        comments: the unit's :class:`~tirkit.lang.lexing.Comment` objects (``ParseResult``).
        ir: the unit's IR (``PrimFunc`` / ``IRModule``), used to find which statements print.
        lines: the file's LineIndex (the spans are in file coordinates).
        printer_config: printer options the table will be used with (dialect, prefixes).

    Returns an empty dict when there is no comment. Every comment of ``comments`` is in the
    table, except when even the unit's own statement prints nothing (never for a parsed unit).
    """
    if not comments or ir is None:
        return {}
    from tirkit.printer import Comments  # pylint: disable=import-outside-toplevel

    stmts = list(_walk(unit))
    printed, probe_text = _printed_spans(ir, stmts, dict(printer_config or {}))
    loc = _Locator(unit, lines)
    for c in comments:
        if not _printer_made(comment_text(c.text), probe_text):
            loc.place(c)
    router = _Router(unit, printed)
    first = next((s for s in stmts[1:] if s.span in printed), None)
    entries: dict[Span, _Entry] = {}
    for p in loc.out:
        target = router.route(p.stmt, p.kind)
        if target == (unit, "leading"):  # above the decorator it would leave the unit's range
            target = (first, "leading") if first is not None else (unit, "trailing")
        if target is None:
            continue
        stmt, kind = target
        getattr(entries.setdefault(stmt.span, _Entry()), kind).append(p.text)
    return {span: Comments(e.leading, e.trailing, e.after) for span, e in entries.items() if e}
