"""Diagnostics as data (mirrors ``tvm.ir.diagnostics``): rendered once for the CLI, converted
once for the language server (DESIGN.md §3.6).

A :class:`Diagnostic` has a severity, a stable code (``"E0101"``-style or a short slug such as
``"syntax"``), the :class:`~tirkit.ir.span.Span` of the exact sub-expression, a message, notes
(each with an optional span) and fixes (text edits a client may apply).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import Iterable, Sequence

from .span import Span


class Severity(IntEnum):
    """How serious a diagnostic is (mirrors ``tvm.ir.diagnostics.DiagnosticLevel``); values match
    LSP's ``DiagnosticSeverity``."""

    ERROR = 1
    WARNING = 2
    INFO = 3
    HINT = 4

    def __str__(self) -> str:
        return self.name.lower()


@dataclass(frozen=True, slots=True)
class Note:
    """Extra information attached to a diagnostic, optionally pointing at other source
    (LSP "related information"; TVM prints these as ``note:`` lines)."""

    message: str
    span: Span | None = None


@dataclass(frozen=True, slots=True)
class Fix:
    """A suggested edit: replace the text of ``span`` with ``replacement`` (an LSP quick fix; TVM's
    diagnostics have no fixes, this extends ``tvm.ir.diagnostics.Diagnostic``)."""

    title: str
    span: Span
    replacement: str


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem found in source (mirrors ``tvm.ir.diagnostics.Diagnostic``).

    ``span`` may be ``None`` for problems without a location (e.g. a whole-file I/O error).
    """

    severity: Severity
    code: str
    span: Span | None
    message: str
    notes: tuple[Note, ...] = field(default=())
    fixes: tuple[Fix, ...] = field(default=())

    @staticmethod
    def error(code: str, span: Span | None, message: str, notes: Sequence[Note] = (),
              fixes: Sequence[Fix] = ()) -> "Diagnostic":
        """An error diagnostic (``DiagnosticLevel.kError``)."""
        return Diagnostic(Severity.ERROR, code, span, message, tuple(notes), tuple(fixes))

    @staticmethod
    def warning(code: str, span: Span | None, message: str, notes: Sequence[Note] = (),
                fixes: Sequence[Fix] = ()) -> "Diagnostic":
        """A warning diagnostic (``DiagnosticLevel.kWarning``)."""
        return Diagnostic(Severity.WARNING, code, span, message, tuple(notes), tuple(fixes))


class DiagnosticError(Exception):
    """Raised with every diagnostic of a failed operation (mirrors ``tvm.error.DiagnosticError``).

    ``diagnostics`` holds all of them, not the first only; ``str()`` lists them.
    """

    def __init__(self, diagnostics: Iterable[Diagnostic], source: str | None = None,
                 path: str | None = None) -> None:
        self.diagnostics = list(diagnostics)
        self.source = source
        self.path = path
        super().__init__(render_text(self.diagnostics, source, path) if self.diagnostics
                         else "(no diagnostics)")


def _line_of(source: str | None, line: int) -> str | None:
    if source is None or line < 1:
        return None
    lines = source.splitlines()
    return lines[line - 1] if line <= len(lines) else None


def _caret_line(text: str, span: Span) -> str:
    start = max(span.column, 0)
    end = span.end_column if span.end_line == span.line else len(text)
    end = max(end, start + 1)
    prefix = "".join("\t" if ch == "\t" else " " for ch in text[:start])
    return prefix + "^" * (end - start)


def render_one(diag: Diagnostic, source: str | None = None, path: str | None = None) -> str:
    """Render one diagnostic as CLI text (TVM's ``DiagnosticRenderer`` analogue)::

        path:line:col: error: message [code]
            source line
            ^^^^^ carets under the exact sub-expression
        note: ...

    Columns are printed 1-based.
    """
    span = diag.span
    where = path or (span.source_name if span else None) or "<unknown>"
    loc = f"{where}:{span.line}:{span.column + 1}" if span else where
    out = [f"{loc}: {diag.severity}: {diag.message} [{diag.code}]"]
    if span is not None:
        text = _line_of(source, span.line)
        if text is not None:
            out.append("    " + text)
            out.append("    " + _caret_line(text, span))
    for note in diag.notes:
        nloc = f"{where}:{note.span.line}:{note.span.column + 1}: " if note.span else ""
        out.append(f"{nloc}note: {note.message}")
    for fix in diag.fixes:
        out.append(f"help: {fix.title}")
    return "\n".join(out)


def render_text(diags: Iterable[Diagnostic], source: str | None = None,
                path: str | None = None) -> str:
    """Render diagnostics (in source order) as CLI text, one block each (TVM's
    ``DiagnosticContext.render``)."""
    ordered = sorted(diags, key=lambda d: (d.span.line, d.span.column) if d.span else (0, 0))
    return "\n".join(render_one(d, source, path) for d in ordered)
