"""Where each name of a TVMScript unit is bound and used (no TVM counterpart: TVM's parser keeps
no such index).

:func:`record` hooks a :class:`~tirkit.lang.parser.core.Parser` before it runs: every name the
parser binds (parameters, loop targets, assignment targets, ``as`` targets) and every name it
resolves to a parsed value is recorded with its span and the value itself. The values are the
IR objects (``Var``, ``Buffer``, ...), so "same symbol" is object identity, which is exactly how
the parser scopes names. Go to definition, find references, hover and semantic tokens read the
resulting :class:`SymbolIndex`.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from typing import Any

from tirkit.ir.span import Span
from tirkit.lang import syntax as S
from tirkit.lang.parser.evaluator import POISON

__all__ = ["Occurrence", "SymbolIndex", "record"]


@dataclass(frozen=True)
class Occurrence:
    """One appearance of a parsed name: its span, the name, the value bound to it and whether
    this is the binding (definition) or a use."""

    span: Span
    name: str
    value: Any = field(compare=False)
    is_def: bool = False


def _key(span: Span) -> tuple[int, int]:
    return span.line, span.column


def _contains(span: Span, line: int, column: int) -> bool:
    return (span.line, span.column) <= (line, column) <= (span.end_line, span.end_column)


class SymbolIndex:
    """Every recorded :class:`Occurrence` of a unit, sorted by position."""

    def __init__(self, occurrences: list[Occurrence] | None = None) -> None:
        uniq = {(_key(o.span), o.name): o for o in (occurrences or [])}
        self.occurrences = sorted(uniq.values(), key=lambda o: _key(o.span))
        self._starts = [_key(o.span) for o in self.occurrences]

    def at(self, line: int, column: int) -> Occurrence | None:
        """The occurrence whose span contains ``(line, column)`` (end inclusive, so a cursor
        right after a name still finds it)."""
        i = bisect.bisect_right(self._starts, (line, column))
        for occ in reversed(self.occurrences[max(i - 2, 0):i]):
            if _contains(occ.span, line, column):
                return occ
        return None

    def definition(self, value: Any) -> Occurrence | None:
        """The first binding of ``value`` (by identity)."""
        return next((o for o in self.occurrences if o.is_def and o.value is value), None)

    def references(self, value: Any, include_definition: bool = True) -> list[Occurrence]:
        """Every occurrence of ``value`` (by identity), in source order."""
        return [o for o in self.occurrences if o.value is value
                and (include_definition or not o.is_def)]


class _Recorder:
    """Collects bindings and uses while a parser runs (see :func:`record`)."""

    def __init__(self, parser: Any, tree: S.Node) -> None:
        self.parser = parser
        self.uses: list[Occurrence] = []
        self.pending: list[tuple[str, Any, Span | None]] = []
        self.binders = _binders(tree)
        table = parser.table
        original_add, original_on_name = table.add, parser.evaluator.on_name

        def add(name: str, value: Any, allow_shadowing: bool = True) -> None:
            original_add(name, value, allow_shadowing)
            if value is not POISON and name != "range":
                self.pending.append((name, value, parser.builder.current_span))

        def on_name(node: Any, value: Any) -> None:
            if original_on_name is not None:
                original_on_name(node, value)
            span = getattr(node, "span", None)
            if span is not None and value is not POISON:
                self.uses.append(Occurrence(span, getattr(node, "id", ""), value))

        table.add = add
        parser.evaluator.on_name = on_name

    def index(self) -> SymbolIndex:
        """The index of everything recorded so far."""
        defs = []
        for name, value, stmt in self.pending:
            span = self._binding_span(name, stmt)
            if span is not None:
                defs.append(Occurrence(span, name, value, True))
        def_keys = {(_key(d.span), d.name) for d in defs}
        uses = [u for u in self.uses if (_key(u.span), u.name) not in def_keys]
        return SymbolIndex(defs + uses)

    def _binding_span(self, name: str, stmt: Span | None) -> Span | None:
        """The first binder spelled ``name`` inside the statement being parsed."""
        spans = self.binders.get(name, [])
        if stmt is None:
            return None
        lo = bisect.bisect_left([_key(s) for s in spans], _key(stmt))
        for span in spans[lo:]:
            if _key(span) > (stmt.end_line, stmt.end_column):
                break
            return span
        return None


def _binders(tree: S.Node) -> dict[str, list[Span]]:
    """Spans of every Name and parameter name of ``tree`` by identifier, in source order."""
    out: dict[str, list[Span]] = {}
    for node in S.walk(tree):
        if isinstance(node, S.Name):
            out.setdefault(node.id, []).append(node.span)
        elif isinstance(node, S.arg):
            sp = node.span
            out.setdefault(node.arg, []).append(Span(
                sp.source_name, sp.line, sp.column, sp.line, sp.column + len(node.arg),
                sp.start_offset, sp.start_offset + len(node.arg)))
    for spans in out.values():
        spans.sort(key=_key)
    return out


def record(parser: Any, tree: S.Node) -> _Recorder:
    """Hook ``parser`` (before ``parser.parse(tree)``) so that its bindings and name uses are
    recorded; call ``.index()`` on the result after parsing."""
    return _Recorder(parser, tree)
