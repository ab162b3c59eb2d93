"""tirkit diagnostics as LSP diagnostics and quick fixes (DESIGN.md §3.6: the same
:class:`~tirkit.ir.diagnostics.Diagnostic` objects the CLI renders).

Notes with a span become ``relatedInformation``; notes without one are appended to the
message. Quick fixes come from ``Diagnostic.fixes`` and from the front end's "did you mean"
hints.
"""
from __future__ import annotations

import re
from typing import Iterable

from lsprotocol import types

from tirkit.ir.diagnostics import Diagnostic, Fix

from .positions import PositionMap

__all__ = ["to_lsp", "to_lsp_all", "quick_fixes", "code_actions"]

SOURCE = "tirkit"
_DID_YOU_MEAN = re.compile(r"did you mean (?:`([^`]+)`|'([^']+)')")


def to_lsp(diag: Diagnostic, pmap: PositionMap, uri: str) -> types.Diagnostic:
    """One LSP diagnostic (UTF-16 or the negotiated encoding, via ``pmap``); a diagnostic
    without a span sits at the start of the file."""
    rng = pmap.range(diag.span) if diag.span is not None else types.Range(
        start=types.Position(line=0, character=0), end=types.Position(line=0, character=0))
    message = diag.message or diag.code
    related = []
    for note in diag.notes:
        if note.span is None:
            message += f"\nnote: {note.message}"
        else:
            related.append(types.DiagnosticRelatedInformation(
                location=types.Location(uri=uri, range=pmap.range(note.span)),
                message=note.message))
    return types.Diagnostic(range=rng, message=message,
                            severity=types.DiagnosticSeverity(int(diag.severity)),
                            code=diag.code, source=SOURCE,
                            related_information=related or None)


def to_lsp_all(diags: Iterable[Diagnostic], pmap: PositionMap, uri: str
               ) -> list[types.Diagnostic]:
    """Every diagnostic converted, in source order."""
    ordered = sorted(diags, key=lambda d: (d.span.line, d.span.column) if d.span else (0, 0))
    return [to_lsp(d, pmap, uri) for d in ordered]


def suggestion_fix(diag: Diagnostic, source_text: str) -> Fix | None:
    """The edit a "did you mean X" message suggests: the diagnostic's text with its last
    identifier replaced by X (a dotted X replaces the whole text); ``None`` without a hint.

    ``source_text`` is the text under the diagnostic's span."""
    m = _DID_YOU_MEAN.search(diag.message)
    if m is None or diag.span is None or not source_text:
        return None
    suggestion = m.group(1) or m.group(2)
    if "." in suggestion or not re.search(r"\w+$", source_text):
        replacement = suggestion
    else:
        replacement = re.sub(r"\w+$", suggestion, source_text)
    if replacement == source_text:
        return None
    return Fix(f"Replace with `{replacement}`", diag.span, replacement)


def quick_fixes(diag: Diagnostic, text: str, pmap: PositionMap) -> list[Fix]:
    """``diag``'s own fixes, else the one its "did you mean" hint implies."""
    if diag.fixes:
        return list(diag.fixes)
    if diag.span is None:
        return []
    start = pmap.char_offset(diag.span.line, diag.span.column)
    end = pmap.char_offset(diag.span.end_line, diag.span.end_column)
    fix = suggestion_fix(diag, text[start:end])
    return [fix] if fix is not None else []


def _overlaps(a: types.Range, b: types.Range) -> bool:
    return (a.start.line, a.start.character) <= (b.end.line, b.end.character) and \
        (b.start.line, b.start.character) <= (a.end.line, a.end.character)


def code_actions(diags: Iterable[Diagnostic], text: str, pmap: PositionMap, uri: str,
                 rng: types.Range) -> list[types.CodeAction]:
    """Quick-fix code actions for the diagnostics overlapping ``rng``."""
    out = []
    for diag in diags:
        if diag.span is None or not _overlaps(pmap.range(diag.span), rng):
            continue
        for fix in quick_fixes(diag, text, pmap):
            edit = types.TextEdit(range=pmap.range(fix.span), new_text=fix.replacement)
            out.append(types.CodeAction(
                title=fix.title, kind=types.CodeActionKind.QuickFix,
                diagnostics=[to_lsp(diag, pmap, uri)], is_preferred=True,
                edit=types.WorkspaceEdit(changes={uri: [edit]})))
    return out
