"""The formatting core of ``tirfmt``: each TVMScript unit of a Python file printed again by
:func:`tirkit.printer.script`, spliced into the file with every other byte untouched, and (in
safe mode) verified before anything is written. No TVM counterpart (TVM has no formatter).

A unit's new text is the printer's output for its IR with the unit's comments, without the
``# from tvm.script import ...`` header, re-indented to the unit's indentation, using the
file's own alias names for the ``tir``/``ir`` namespaces and the unit's own decorator spelling
(``@tvm.script.tir.prim_func``, ``@T.prim_func(private=True)``) when the dialect is unchanged.
With ``dialect`` set to the other dialect, the file's ``from tvm.script import tir as T`` import
lines (and ``tirkit.lang`` / ``import tvm.script.tir as X`` forms) are rewritten too.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from tirkit.compiler.driver import gc_paused
from tirkit.ir.diagnostics import render_text
from tirkit.lang.entry import ParsedUnit, parse_file
from tirkit.lang.host import HostFile, Unit

from .tirfmt_keep import (Tokens, WrittenText, keep_user_content, lost_content,
                          written_global_symbols)
from .tirfmt_meta import macro_names, metaprogramming_forms

__all__ = ["Mode", "FormatResult", "format_source"]


@dataclass(frozen=True)
class Mode:
    """Options of one formatting run: ``line_length`` (``None``/0: never wrap), ``dialect``
    (``None``: keep each unit's), ``safe`` (verify before writing), ``upgrade`` (rewrite the
    legacy units of seed 000 in today's syntax, :mod:`.tirfmt_upgrade`)."""

    line_length: int | None = 100
    dialect: str | None = None
    safe: bool = True
    upgrade: bool = False  # also rewrite legacy hybrid-script units (tirfmt --upgrade)


@dataclass
class FormatResult:
    """The outcome for one file: ``text`` (the new text; the input when nothing could be done),
    ``errors`` (messages; non-empty means the file must be left alone) and ``notes`` (units left
    as they are, e.g. not statically parseable)."""

    source: str
    text: str
    errors: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        """Whether formatting changes the file (and it may be written)."""
        return not self.errors and self.text != self.source


_HEADER = re.compile(r"^# from tvm\.script import \w+ as [\w.]+$")


def _prefixes(host: HostFile, unit: Unit) -> tuple[str, str]:
    """The file's names for the tir (or tirx) and ir namespaces at ``unit``."""
    aliases = dict(unit.aliases)
    tir = next((a for a, m in aliases.items() if m in ("tir", "tirx")), None)
    ir = next((a for a, m in aliases.items() if m == "ir"), None)
    if tir is None:
        tir = "tvm.script.tir" if host.resolve("tvm.script.tir.prim_func", unit.start) else "T"
    if ir is None:
        ir = "tvm.script.ir" if host.resolve("tvm.script.ir.ir_module", unit.start) else "I"
    return tir, ir


def _strip_header(text: str) -> list[str]:
    lines = text.split("\n")
    while lines and _HEADER.match(lines[0]):
        lines.pop(0)
    if lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


_DECO = re.compile(r"^(\s*)@([\w.]+)(.*)$")


def _keep_decorator(lines: list[str], unit: Unit) -> list[str]:
    """Put the unit's own decorator spelling back when it says the same as the printed one
    (same arguments, only the callee spelled differently; or the printed arguments plus a
    ``check_well_formed=`` the IR does not hold)."""
    original = re.match(r"^([\w.]+)\s*(.*)$", unit.decorator.strip(), re.S)
    if original is None:
        return lines
    for i, line in enumerate(lines):
        m = _DECO.match(line)
        if m is None:
            continue
        if m.group(2).rsplit(".", 1)[-1] != original.group(1).rsplit(".", 1)[-1]:
            return lines
        if _args(m.group(3)) == _args(original.group(2)):
            lines[i] = f"{m.group(1)}@{original.group(1)}{m.group(3)}"
        elif _args(m.group(3)) == _args(_PARSE_OPTION.sub("", original.group(2))) and \
                "\n" not in original.group(2):  # check_well_formed=False: not in the IR
            lines[i] = f"{m.group(1)}@{original.group(1)}{original.group(2).rstrip()}"
        return lines
    return lines


#: a decorator argument that only tells the parser what to do (no trace in the IR)
_PARSE_OPTION = re.compile(r"(?<=[(,])\s*check_well_formed\s*=\s*(?:True|False)\s*(?:,|(?=\)))")


def _args(text: str) -> str:
    text = re.sub(r"\s+", "", text)
    return "" if text == "()" else text.rstrip(",)").rstrip(",")


def format_unit(host: HostFile, unit: Unit, parsed: ParsedUnit, mode: Mode,
                tokens: Tokens | None = None, written: WrittenText | None = None) -> str:
    """The new text of one unit (at the unit's indentation, without a final newline);
    ``tokens``: the run's :class:`~.tirfmt_keep.Tokens` (a fresh one when not given);
    ``written``: the :class:`~.tirfmt_keep.WrittenText` of ``host``'s text (made when not
    given). The user's spellings are kept when the dialect stays."""
    from tirkit.printer import script  # pylint: disable=import-outside-toplevel

    dialect = mode.dialect or unit.dialect
    if dialect == unit.dialect and written is None:
        written = WrittenText(host.text)
    tir, ir = _prefixes(host, unit)
    width = None
    if mode.line_length:
        width = max(mode.line_length - len(unit.indent.expandtabs(4)), 20)
    kept = written if dialect == unit.dialect else None
    # the comments placed for this very print: which statements get a line of their own
    # depends on the dialect and the kept spellings (a T.match_buffer line and its comment)
    comments = parsed.comments_with(tir_prefix=tir, ir_prefix=ir, dialect=dialect,
                                    written=kept) if hasattr(parsed, "comments_with") \
        else parsed.comments
    text = script(parsed.ir, tir_prefix=tir, ir_prefix=ir, dialect=dialect, line_length=width,
                  comments=comments, binding_name=unit.name,
                  keep_global_symbol=written_global_symbols(unit.text),
                  written=kept)
    lines = _strip_header(text)
    if dialect == unit.dialect:
        lines = _keep_decorator(lines, unit)
    lines = keep_user_content(lines, (tokens or Tokens()).source(unit.text, unit.indent),
                              unit.kind == "prim_func", dialect == unit.dialect)
    return "\n".join(unit.indent + ln if ln.strip() else "" for ln in lines)


_IMPORT_FROM = re.compile(r"^([ \t]*from[ \t]+(?:tvm\.script|tirkit\.lang)[ \t]+import[ \t]+)(.*)$",
                          re.M)
_IMPORT_MOD = re.compile(r"^([ \t]*import[ \t]+(?:tvm\.script|tirkit\.lang)\.)(tirx?)\b", re.M)


def translate_imports(text: str, dialect: str) -> str:
    """The file's ``from tvm.script import tir as T`` (or ``tirx``) import lines rewritten to
    ``dialect``; ``from tirkit.lang import ...`` and ``import tvm.script.tir as X`` likewise.
    Every other byte is kept."""
    old = "tirx" if dialect == "tir" else "tir"

    def names(m: re.Match) -> str:
        return m.group(1) + re.sub(rf"\b{old}\b(?=\s+as\b|\s*,|\s*\)|\s*$|\s*#|\s*\r)", dialect,
                                   m.group(2))

    text = _IMPORT_FROM.sub(names, text)
    return _IMPORT_MOD.sub(lambda m: m.group(1) + (dialect if m.group(2) == old else m.group(2)),
                           text)


def _syntax_errors(path: str, text: str, units: list[ParsedUnit]) -> list[str]:
    out = []
    for u in units:
        errors = [d for d in u.diagnostics if d.severity == 1 and d.code == "syntax"]
        if errors:
            out.append(render_text(errors, text, path))
    return out


def _left_as_is(text: str, unit: Unit, parsed: ParsedUnit | None, macros: list) -> str | None:
    """Why a unit must keep its text, or None: no IR, a generator's captures (printing would
    bake in the symbolic stand-ins) or metaprogramming printing would expand."""
    if parsed is None or parsed.ir is None:
        return parsed.diagnostics[0].message if parsed and parsed.diagnostics else "no IR"
    if parsed.captures:
        return f"it captures {', '.join(parsed.captures)} from its caller"
    tir_aliases = {a for a, ns in (dict(unit.aliases) or {"T": "tir"}).items()
                   if ns in ("tir", "tirx")}
    if not macros:
        macros.append(macro_names(text, tir_aliases))
    forms = metaprogramming_forms(unit.text, tir_aliases, macros[0])
    if forms:
        return f"it uses {', '.join(forms)}, which printing would expand"
    return None


def _parse(text: str, path: str) -> tuple[HostFile, list[ParsedUnit]]:
    """``parse_file(text)`` and the :class:`HostFile` its units were located in (one location
    of the units per text: the spans of the parsed units are the host's by construction)."""
    hosts: list = []
    units = parse_file(text, path, host=hosts)
    return hosts[0] if hosts else HostFile.parse(text, path), units


def _format_once(text: str, path: str, mode: Mode,
                 located: tuple[HostFile, list[ParsedUnit]] | None = None,
                 seen: list | None = None, tokens: Tokens | None = None) -> FormatResult:
    """One formatting pass; ``located`` is ``_parse(text)`` when the caller has it already
    (never with ``mode.upgrade``, which parses the upgraded text), ``seen`` receives the
    units parsed here (so ``verify`` does not parse the same text again) and ``tokens`` is the
    run's :class:`~.tirfmt_keep.Tokens` (each unit text tokenized once in both passes)."""
    tokens = tokens or Tokens()
    source, upgrade_notes = text, list[str]()
    if mode.upgrade:
        from .tirfmt_upgrade import upgrade_legacy  # pylint: disable=import-outside-toplevel

        text, upgrade_notes = upgrade_legacy(text, path, mode.dialect)
    host, units = _parse(text, path) if located is None or mode.upgrade else located
    if seen is not None and not mode.upgrade:
        seen.append(units)
    result = FormatResult(source, text, _syntax_errors(path, text, units), upgrade_notes)
    if result.errors:
        return result
    by_span = {u.span: u for u in units if u.kind != "file"}
    replacements = {}
    macros: list = []  # the file's @T.macro names, found once when first needed
    written = WrittenText(text)  # the user's spellings (what the spans of `units` cover)
    for unit in host.units:
        parsed = by_span.get(unit.span)
        reason = _left_as_is(text, unit, parsed, macros)
        if reason:
            result.notes.append(f"{path}:{unit.span.line}: unit {unit.qualname!r} left as it "
                                f"is: {reason}")
            continue
        assert parsed is not None  # (_left_as_is gave a reason for None)
        try:
            new = format_unit(host, unit, parsed, mode, tokens, written)
        except Exception as err:  # pylint: disable=broad-except  # reported, file untouched
            result.errors.append(f"{path}:{unit.span.line}: error: cannot print unit "
                                 f"{unit.qualname!r}: {type(err).__name__}: {err}")
            continue
        same = (mode.dialect or unit.dialect) == unit.dialect and not mode.upgrade
        lost = lost_content(unit.text, new, unit.indent, tokens) if same else None
        if lost is not None:  # a formatter changes layout, never what the user wrote
            result.notes.append(f"{path}:{unit.span.line}: unit {unit.qualname!r} left as it "
                                f"is: formatting would lose {lost}")
            continue
        replacements[unit] = new
    if result.errors:
        return result
    new = host.replace_units(replacements)
    if mode.dialect and any(u.dialect != mode.dialect for u in replacements):
        new = translate_imports(new, mode.dialect)
    result.text = new
    return result


def format_source(text: str, path: str = "<string>", mode: Mode = Mode()) -> FormatResult:
    """Format the TVMScript units of the Python source ``text``; nothing is executed.

    In safe mode the new text must parse to structurally equal IR, unit by unit, and format to
    itself; otherwise ``errors`` says why and ``text`` is the input unchanged. Files with syntax
    errors get their rendered diagnostics as errors.
    """
    with gc_paused():  # parsing and printing allocate many objects, few of them in cycles
        seen: list = []
        tokens = Tokens()
        result = _format_once(text, path, mode, seen=seen, tokens=tokens)
        if result.errors or not mode.safe or result.text == text:
            return result
        before = seen.pop() if seen else None
        for unit in before or ():
            unit.syntax = None  # its comments are printed; verify compares IR: less memory
        problem = verify(text, result.text, path, mode, before=before, tokens=tokens)
    if problem is not None:
        result.errors.append(f"{path}: error: not formatted, the result {problem}; please "
                             f"report this tirfmt bug")
        result.text = text
    return result


def _start(unit: ParsedUnit) -> int:
    return unit.span.start_offset if unit.span is not None else -1


def verify(old: str, new: str, path: str, mode: Mode, *,
           before: list | None = None, tokens: Tokens | None = None) -> str | None:
    """Why ``new`` is not a faithful, stable formatting of ``old`` (``None`` when it is): same
    units, each with structurally equal IR, and formatting ``new`` changes nothing. ``before``:
    ``parse_file(old)`` when the caller has it (each text is parsed once); ``tokens``: the
    formatting run's :class:`~.tirfmt_keep.Tokens`."""
    from tirkit.ir import first_mismatch, structural_equal  # pylint: disable=import-outside-toplevel

    new_host, new_units = _parse(new, path)
    before = sorted((u for u in (parse_file(old, path) if before is None else before)
                     if u.kind != "file"), key=_start)
    after = sorted((u for u in new_units if u.kind != "file"), key=_start)
    if [u.name for u in before] != [u.name for u in after]:
        return "does not have the same TVMScript units"
    # A var the unit uses but does not define (``n = T.int32()`` at its top, a caller's value
    # in an annotation) is a new object at each parse: such vars are mapped one to one, in
    # order. Their names are the text's, and lost_content() kept each one when the dialect
    # stays; a translation compares them as they are.
    free = mode.dialect is None
    for a, b in zip(before, after):
        if a.ir is None:
            continue
        if b.ir is None:
            msg = b.diagnostics[0].message if b.diagnostics else "no IR"
            return f"does not parse (unit {b.name!r}: {msg})"
        if not structural_equal(a.ir, b.ir) and not (
                free and structural_equal(a.ir, b.ir, map_free_vars=True)):
            return f"parses to a different IR (unit {a.name!r}: {first_mismatch(a.ir, b.ir)})"
    again = _format_once(new, path, Mode(mode.line_length, mode.dialect, safe=False,
                                         upgrade=mode.upgrade), located=(new_host, new_units),
                         tokens=tokens)
    if again.errors or again.text != new:
        return "is not stable (formatting it again changes it)"
    return None
