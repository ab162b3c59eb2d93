"""``tirfmt --upgrade``: the legacy hybrid-script units of seed 000 (``class Module:`` /
``def f(A: ty.handle)``, see :mod:`tirkit.lang.legacy`) rewritten in today's TVMScript. No TVM
counterpart (TVM dropped the dialect in v0.9 without a translator).

Each legacy unit is parsed to IR and printed again (classic, or tirx with ``--dialect tirx``)
with its comments and its name, at its indentation; every byte outside the units is kept. The
``from tvm.script import ...`` lines the new units need are added just before the first upgraded
unit when the file does not import them yet. :mod:`.tirfmt_format` then formats and verifies the
result like any other file (the units must parse to structurally equal IR).
"""
from __future__ import annotations

from tirkit.lang.entry import parse_legacy_units
from tirkit.lang.host import HostFile
from tirkit.lang.legacy import find_legacy_units
from tirkit.ir.span import LineIndex

__all__ = ["upgrade_legacy"]

_IMPORTS = {"tir": "from tvm.script import tir as T", "tirx": "from tvm.script import tirx as T",
            "ir": "from tvm.script import ir as I"}


def upgrade_legacy(text: str, path: str, dialect: str | None) -> tuple[str, list[str]]:
    """``text`` with its legacy units printed in ``dialect`` (default ``"tir"``), and the
    messages for units that could not be upgraded (their diagnostics; such units are kept)."""
    from tirkit.printer import script  # pylint: disable=import-outside-toplevel

    dialect = dialect or "tir"
    found = find_legacy_units(text)
    if not found:
        return text, []
    parsed = parse_legacy_units(text, LineIndex(text, path))
    aliases = _aliases(text, path)
    tir_alias = next((a for a, m in aliases.items() if m == dialect), None)
    ir_alias = next((a for a, m in aliases.items() if m == "ir"), None)
    edits, notes, need = [], [], set()
    for unit, result in zip(found, parsed):
        if result.ir is None:
            first = result.diagnostics[0].message if result.diagnostics else "no IR"
            notes.append(f"{path}:{result.span.line}: legacy unit {unit.name!r} left as it is: "
                         f"{first}")
            continue
        need.add(dialect)
        if unit.kind == "ir_module":
            need.add("ir")
        indent = text[unit.start:len(text) - len(text[unit.start:].lstrip(" \t"))]
        config = {"tir_prefix": tir_alias or "T", "ir_prefix": ir_alias or "I",
                  "dialect": dialect}  # the comments placed for the print they go into
        new = script(result.ir, **config, comments=result.comments_with(**config),
                     binding_name=unit.name)
        lines = [ln for ln in new.split("\n") if not ln.startswith("# from tvm.script")]
        while lines and not lines[0].strip():
            lines.pop(0)
        while lines and not lines[-1].strip():
            lines.pop()
        edits.append((unit.start, unit.end, "\n".join(indent + ln if ln.strip() else ""
                                                      for ln in lines)))
    if not edits:
        return text, notes
    header = [_IMPORTS[k] for k in (dialect, "ir") if k in need
              and (tir_alias if k == dialect else ir_alias) is None]
    out = text
    for start, end, new in sorted(edits, reverse=True):
        out = out[:start] + new + out[end:]
    if header:
        at = min(start for start, _, _ in edits)
        out = out[:at] + "\n".join(header) + "\n\n\n" + out[at:]
    return out, notes


def _aliases(text: str, path: str) -> dict[str, str]:
    """The file's module-level TVMScript aliases (``{"T": "tir", "I": "ir"}``)."""
    host = HostFile.parse(text, path)
    return dict(host.imports.aliases(None, ""))
