"""Completion, signature help and formatting of TVMScript units (no TVM counterpart).

Formatting goes through ``tirfmt``'s API when it is available (:mod:`tirkit.cli.tirfmt`);
until then each unit that parses without errors and has no comments is re-printed with
:func:`tirkit.printer.script`, kept only if it parses back to a structurally equal IR (tirfmt's
``--safe`` rule), and spliced into the file; everything outside the units stays byte-for-byte.
"""
from __future__ import annotations

import re
from typing import Any, Callable

from lsprotocol import types

from .analysis import FileAnalysis, PlacedUnit, analyze_unit
from .positions import PositionMap
from .tnames import call_at, completion_items, lookup, signature_help

__all__ = ["complete", "signature_at", "format_edits", "tirfmt_api", "format_unit_text",
           "minimal_edit", "fallback_edits"]

_BEFORE_DOT = re.compile(r"([A-Za-z_][\w.]*)\.(\w*)$")


def _aliases(placed: PlacedUnit | None, fa: FileAnalysis) -> dict[str, str]:
    if placed is not None and placed.unit.aliases:
        return dict(placed.unit.aliases)
    if fa.units and fa.units[0].unit.aliases:
        return dict(fa.units[0].unit.aliases)
    return {"T": "tir", "I": "ir"}


def complete(fa: FileAnalysis, line: int, column: int) -> list[types.CompletionItem]:
    """Completion items at ``(line, column)``: namespace members after ``T.`` / ``T.axis.``
    (and ``I.``), inside or outside a unit."""
    lines = fa.text.split("\n")
    before = lines[line - 1][:column] if line - 1 < len(lines) else ""
    m = _BEFORE_DOT.search(before)
    if m is None:
        return []
    parts = m.group(1).split(".")
    kind = _aliases(fa.unit_at(line), fa).get(parts[0])
    if kind is None:
        return []
    return completion_items(kind, parts[0], tuple(parts[1:]))


def signature_at(fa: FileAnalysis, offset: int, line: int) -> types.SignatureHelp | None:
    """Signature help for the innermost ``T.name(`` call around character ``offset``."""
    found = call_at(fa.text, offset)
    if found is None:
        return None
    name, active = found
    parts = name.split(".")
    kind = _aliases(fa.unit_at(line), fa).get(parts[0])
    if kind is None or len(parts) < 2:
        return None
    info = lookup(kind, parts[0], tuple(parts[1:]))
    return signature_help(info, active) if info is not None else None


# ----------------------------------------------------------------------------- formatting
def tirfmt_api() -> Callable[[str, str], str] | None:
    """``tirfmt``'s text-to-text function (:func:`tirkit.cli.tirfmt_format.format_source`, or a
    ``format_text``/``format_source``/``format_str`` of :mod:`tirkit.cli.tirfmt`, called with the
    text and its path), else ``None``."""
    try:
        from tirkit.cli import tirfmt_format  # pylint: disable=import-outside-toplevel

        return _adapt(tirfmt_format.format_source)
    except ImportError:
        pass
    try:
        from tirkit.cli import tirfmt  # pylint: disable=import-outside-toplevel
    except ImportError:
        return None
    for name in ("format_text", "format_source", "format_str"):
        fn = getattr(tirfmt, name, None)
        if callable(fn):
            return _adapt(fn)
    return None


def _adapt(fn: Callable[..., Any]) -> Callable[[str, str], str]:
    def call(text: str, path: str) -> str:
        try:
            out = fn(text, path=path)
        except TypeError:
            out = fn(text)
        if getattr(out, "errors", None):
            return text  # tirfmt refused (syntax errors, failed verification)
        for attr in ("text", "output", "formatted"):
            out = getattr(out, attr, out)
        return out if isinstance(out, str) else text
    return call


def format_unit_text(placed: PlacedUnit) -> str | None:
    """The re-printed text of one unit (indented like the unit), or ``None`` when the unit has
    errors or comments, uses other aliases than ``T``/``I``, or does not print back safely."""
    from tirkit.ir import structural_equal  # pylint: disable=import-outside-toplevel
    from tirkit.printer import script  # pylint: disable=import-outside-toplevel

    analysis, unit = placed.analysis, placed.unit
    if analysis.ir is None or analysis.diagnostics or analysis.comments or \
            any(a not in ("T", "I") for a in unit.aliases):
        return None
    try:
        printed = script(analysis.ir)
    except Exception:  # pylint: disable=broad-except  # formatting never breaks the file
        return None
    body = [ln for ln in printed.split("\n") if not ln.startswith("# from tvm.script")]
    while body and not body[0].strip():
        body.pop(0)
    text = "\n".join((unit.indent + ln) if ln else ln for ln in body).rstrip("\n")
    check = analyze_unit(text, _env(placed), unit.dialect)
    if check.ir is None or check.diagnostics or not structural_equal(check.ir, analysis.ir):
        return None
    return text


def _env(placed: PlacedUnit) -> dict[str, Any]:
    from tirkit.lang import entry  # pylint: disable=import-outside-toplevel

    aliases = dict(placed.unit.aliases) or {"T": "tir", "I": "ir"}
    return {a: entry._namespace(k) for a, k in aliases.items()}  # pylint: disable=protected-access


def minimal_edit(old: str, new: str, pmap: PositionMap) -> list[types.TextEdit]:
    """One edit turning ``old`` into ``new``, covering only what differs (common prefix and
    suffix kept); empty when they are equal."""
    if old == new:
        return []
    prefix = 0
    limit = min(len(old), len(new))
    while prefix < limit and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and old[-1 - suffix] == new[-1 - suffix]:
        suffix += 1
    return [types.TextEdit(range=pmap.offset_range(prefix, len(old) - suffix),
                           new_text=new[prefix:len(new) - suffix])]


def format_edits(fa: FileAnalysis, pmap: PositionMap,
                 api: Callable[[str, str], str] | None = None) -> list[types.TextEdit]:
    """Text edits formatting every TVMScript unit of the document: tirfmt's result as one
    minimal edit when its API exists (``api`` overrides the lookup), else one edit per unit
    re-printed by :func:`format_unit_text`."""
    if not fa.units:
        return []
    api = api or tirfmt_api()
    if api is not None:
        return minimal_edit(fa.text, api(fa.text, fa.path), pmap)
    return fallback_edits(fa, pmap)


def fallback_edits(fa: FileAnalysis, pmap: PositionMap) -> list[types.TextEdit]:
    """One edit per unit that :func:`format_unit_text` can re-print (used without tirfmt)."""
    edits = []
    for placed in fa.units:
        new = format_unit_text(placed)
        if new is not None and new != placed.unit.text:
            edits.append(types.TextEdit(
                range=pmap.offset_range(placed.unit.start, placed.unit.end), new_text=new))
    return edits
