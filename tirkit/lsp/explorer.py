"""The pipeline explorer: one self-contained HTML page (no network) made by ``tirc FILE --html
OUT.html`` and by the language server's ``tirkit/pipelineExplorer`` request (the VS Code
command "TVMScript: Open pipeline explorer" shows it in a webview).

The page shows the source, every pipeline stage's TVMScript (runs of unchanged stages folded),
each stage's diff against the previous one, the LLVM IR before and after LLVM's optimisation and
the assembly. A click on a source line highlights what that line became in the stage shown, and a
click on a stage line highlights the source it came from (the source<->stage map of the language
server's previews: statements paired through their spans, which survive the pipeline).

No TVM counterpart; in the spirit of Compiler Explorer and Halide's ``StmtToHTML``. The data is
built by :func:`explorer_data` (a module, for tirc) or :func:`unit_explorer_data` (an analysed
unit, for the server), as plain JSON, and placed in ``explorer.html`` by :func:`render_html`; the
page's script renders it.
"""
from __future__ import annotations

import difflib
import html
import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from tirkit.ir import IRModule
from tirkit.ir.span import Span

from .previews import position_map, stage_text


@dataclass
class _FilePlaced:
    """The part of the language server's ``PlacedUnit`` that ``position_map`` uses: the IR's
    spans are already in file coordinates."""

    line_delta: int = 0

    @staticmethod
    def to_file(span: Span | None) -> Span | None:
        """File coordinates of a span (identity)."""
        return span


def _line_map(placed: Any, mod: IRModule, text: str) -> list[list[int]]:
    """``[[src_first, src_last, stage_first, stage_last], ...]`` (0-based lines) pairing the
    statements of a stage's text with the source statements they came from."""
    try:
        pairs = position_map(placed, mod, text)
    except Exception:  # pylint: disable=broad-except  # a map is a nicety; the text still shows
        return []
    return [[p["source"][0], p["source"][2], p["stage"][0], p["stage"][2]] for p in pairs]


def _diff(before: str, after: str, name: str) -> str:
    """A unified diff of two stage texts ('' when equal)."""
    return "".join(difflib.unified_diff(before.splitlines(True), after.splitlines(True),
                                        "previous stage", name, n=3))


def stages_data(results: list[Any], placed: Any = None) -> list[dict[str, Any]]:
    """One JSON record per pipeline stage: name, changed/skipped, time, text, diff, line map.
    ``placed`` converts the IR's spans to file lines (a language server ``PlacedUnit``; by
    default the spans are file positions already)."""
    placed = placed or _FilePlaced()
    out: list[dict[str, Any]] = []
    previous = ""
    for index, result in enumerate(results):
        text = stage_text(result.mod)
        out.append({"index": index, "name": result.name,
                    "changed": bool(result.changed) or index == 0,
                    "skipped": bool(result.skipped), "ms": round(result.seconds * 1e3, 3),
                    "text": text, "diff": _diff(previous, text, result.name) if index else "",
                    "map": _line_map(placed, result.mod, text)})
        previous = text
    return out


def codegen_data(final: IRModule, target: Any) -> dict[str, Any]:
    """LLVM IR before/after optimisation and assembly of the lowered module, or why not."""
    from tirkit.compiler.codegen import llvm  # pylint: disable=import-outside-toplevel

    try:
        before = llvm.emit_llvm(final, target)
        after = llvm.optimize(before, target)
        return {"available": True, "before": before, "after": after,
                "asm": llvm.emit_assembly(after, target)}
    except Exception as err:  # pylint: disable=broad-except  # shown on the page instead
        return {"available": False, "message": f"code generation failed: {err}"}


def explorer_data(mod: IRModule, source: str, path: str, target: Any,
                  opt_level: int = 2) -> dict[str, Any]:
    """Everything the page shows, as JSON-ready data: the source, the stages and the code."""
    from tirkit.compiler.pipeline import run_pipeline  # pylint: disable=import-outside-toplevel

    results = run_pipeline(mod, opt_level=opt_level)
    return {"file": path, "source": source, "opt_level": opt_level,
            "target": str(getattr(target, "triple", target)),
            "functions": sorted(gv.name_hint for gv in mod.functions),
            "stages": stages_data(results), "code": codegen_data(results[-1].mod, target)}


def unit_explorer_data(placed: Any, lowering: Any, text: str, path: str) -> dict[str, Any]:
    """The page's data for one analysed unit of a document (``lowering`` from
    :func:`tirkit.lsp.previews.lower_unit`)."""
    from tirkit.compiler.target import Target  # pylint: disable=import-outside-toplevel

    results = lowering.results
    target = Target.host()
    code = codegen_data(results[-1].mod, target) if not lowering.note else {
        "available": False, "message": lowering.note}
    return {"file": path, "source": text, "opt_level": 2, "target": str(target.triple),
            "functions": sorted(gv.name_hint for gv in results[0].mod.functions),
            "stages": stages_data(results, placed), "code": code}


def render_html(data: dict[str, Any]) -> str:
    """The page: ``explorer.html`` with the data embedded (``</`` escaped so no text in the
    data can close the script element)."""
    page = resources.files("tirkit.lsp").joinpath("explorer.html").read_text(encoding="utf-8")
    payload = json.dumps(data).replace("</", "<\\/")
    return (page.replace("__TITLE__", html.escape(f"tirc explorer: {data['file']}"))
                .replace("__DATA__", payload))
