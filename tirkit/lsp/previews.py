"""Per-stage lowering previews of one TVMScript unit (DESIGN.md §6: the same stage records as
``tirc --print-after-all``).

:func:`lower_unit` runs :func:`tirkit.compiler.pipeline.run_pipeline` on a unit's IR (results
cached per analysed unit text) under an instrument that aborts when ``cancelled()`` turns true
(a newer edit). :func:`stage_payload` gives one stage's TVMScript text, optionally the LLVM IR
before and after optimisation, and a map between source and stage positions built by parsing
the printed stage back and pairing its statements with the stage IR's (whose spans point at the
source, DESIGN.md §3.3).
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field, fields
from typing import Any, Callable, cast

from tirkit.ir.node import Node
from tirkit.ir.span import Span

from .analysis import PlacedUnit, UnitAnalysis, analyze_unit, shift_span

__all__ = ["PreviewUnavailable", "Cancelled", "Lowering", "lower_unit", "graph_stages",
           "stage_list", "stage_payload", "stage_text", "position_map", "llvm_payload",
           "PrintedStage", "printed_stage"]


class PreviewUnavailable(Exception):
    """Lowering previews cannot be made (compiler missing, unit with errors, pass failure)."""


class Cancelled(Exception):
    """A newer edit made the preview being computed obsolete."""


_CACHE: OrderedDict[int, tuple[UnitAnalysis, Any]] = OrderedDict()
_LOCK = threading.Lock()


def _module(analysis: UnitAnalysis) -> Any:
    from tirkit.ir import IRModule  # pylint: disable=import-outside-toplevel
    from tirkit import tir  # pylint: disable=import-outside-toplevel

    ir = analysis.ir
    if isinstance(ir, tir.PrimFunc):
        name = str(ir.attrs.get("global_symbol", "main"))
        return IRModule({name: ir})
    return ir


def _instrument(cancelled: Callable[[], bool]) -> Any:
    from tirkit.compiler.transform import PassInstrument  # pylint: disable=import-outside-toplevel

    class _Cancel(PassInstrument):
        def run_before_pass(self, mod: Any, info: Any) -> None:
            if cancelled():
                raise Cancelled()

    return _Cancel()


@dataclass
class Lowering:
    """The recorded stages of one unit (``StageResult`` list, ``"Input"`` first) and a note when
    the pipeline stopped early because later stages have no registered pass yet.

    ``printed`` holds each stage printed so far (index -> :class:`PrintedStage`): a stage is
    printed once per lowering, and a stage whose module is the one an earlier printed stage
    holds (its pass changed nothing) shares that stage's text instead of printing it again.
    """

    results: list
    note: str = ""
    printed: dict[int, "PrintedStage"] = field(default_factory=dict)
    #: the LLVM payload of the final stage, made on the first request for it
    llvm: dict[str, Any] | None = None


@dataclass(frozen=True)
class PrintedStage:
    """A stage's TVMScript text and its statement pairs in unit coordinates (source span, stage
    text span), from which :func:`position_map` makes file coordinates."""

    text: str
    pairs: tuple[tuple[Span, Span], ...]


def _until() -> tuple[int | None, str]:
    """The last runnable stage index (``None``: the whole pipeline) and why it stops early."""
    from tirkit.compiler import pipeline as P  # pylint: disable=import-outside-toplevel

    for i, stage in enumerate(P.PIPELINE):
        if P.missing_passes([stage]):
            return i - 1, (f"the pipeline stops before {stage.name}: its pass is not "
                           "registered yet")
    return None, ""


def graph_stages(mod: Any, cancelled: Callable[[], bool] = lambda: False) -> tuple[list, Any]:
    """For a module with Relax functions: the records of ``Input`` and each graph stage
    (LegalizeOps, AnnotateTIROpPattern, FuseOps, FuseTIR — what ``tirc`` runs before the TIR
    pipeline), and the module of PrimFuncs the TIR pipeline continues with. Otherwise ``([],
    mod)``."""
    from tirkit.compiler.pipeline import StageResult  # pylint: disable=import-outside-toplevel
    from tirkit.relax.pipeline import (GRAPH_PIPELINE, has_relax, prim_funcs,  # pylint: disable=C0415
                                       rebind_global_vars)

    if not has_relax(mod):
        return [], mod
    mod = rebind_global_vars(mod)
    results = [StageResult("Input", mod, True)]
    for name, stage in GRAPH_PIPELINE:
        if cancelled():
            raise Cancelled()
        before, mod = mod, stage(mod)
        results.append(StageResult(name, mod, None, before=before))
    return results, prim_funcs(mod, fuse=False)


def lower_unit(analysis: UnitAnalysis, cancelled: Callable[[], bool] = lambda: False,
               opt_level: int = 2) -> Lowering:
    """Run the pipeline on a unit's IR (cached per analysed unit).

    Raises:
        PreviewUnavailable: the unit has errors, the compiler pipeline is missing or failed.
        Cancelled: ``cancelled()`` became true between two passes.
    """
    if analysis.ir is None:
        raise PreviewUnavailable("the unit has errors; fix them to see its lowering")
    with _LOCK:
        hit = _CACHE.get(id(analysis))
        if hit is not None and hit[0] is analysis:
            return hit[1]
    try:
        from tirkit.compiler.pipeline import run_pipeline  # pylint: disable=import-outside-toplevel

        until, note = _until()
    except ImportError as err:
        raise PreviewUnavailable(f"the compiler pipeline is not available: {err}") from err
    try:
        graph, mod = graph_stages(_module(analysis), cancelled)
        results = run_pipeline(mod, opt_level=opt_level, until=until,
                               instruments=[_instrument(cancelled)])
        results = graph + results[1:] if graph else results
    except Cancelled:
        raise
    except Exception as err:  # pylint: disable=broad-except  # a failing pass is reported
        raise PreviewUnavailable(f"lowering failed: {type(err).__name__}: {err}") from err
    lowering = Lowering(results, note)
    with _LOCK:
        _CACHE[id(analysis)] = (analysis, lowering)
        while len(_CACHE) > 16:
            _CACHE.popitem(last=False)
    return lowering


def stage_list(lowering: Lowering) -> list[dict[str, Any]]:
    """``[{"index", "name", "changed"}]`` of every recorded stage (the input counts as
    changed)."""
    return [{"index": i, "name": r.name, "changed": bool(r.changed) or i == 0}
            for i, r in enumerate(lowering.results)]


def stage_text(mod: Any) -> str:
    """A stage's IR as TVMScript (a single function printed alone)."""
    from tirkit.printer import script  # pylint: disable=import-outside-toplevel

    funcs = list(mod.functions.values())
    return script(funcs[0] if len(funcs) == 1 else mod)


def _pairs(a: Any, b: Any, out: list[tuple[Span, Span]]) -> None:
    """Pair statements of two structurally equal IRs (``a`` from the stage, ``b`` parsed from
    its text) by walking them in step."""
    from tirkit import tir  # pylint: disable=import-outside-toplevel

    todo = [(a, b)]
    seen: set[int] = set()
    while todo:
        x, y = todo.pop()
        if isinstance(x, (list, tuple)) and isinstance(y, (list, tuple)):
            todo.extend(zip(x, y))
        elif isinstance(x, dict) and isinstance(y, dict):
            todo.extend(zip(x.values(), y.values()))
        elif isinstance(x, Node) and type(x) is type(y) and id(x) not in seen:
            seen.add(id(x))
            if isinstance(x, (tir.Stmt, tir.PrimFunc)) and x.span is not None and \
                    y.span is not None:
                out.append((x.span, y.span))
            todo.extend((getattr(x, f.name), getattr(y, f.name))
                        for f in fields(x) if f.name != "span")


def position_map(placed: PlacedUnit, stage_mod: Any, text: str) -> list[dict[str, Any]]:
    """``[{"source": [line, col, end_line, end_col], "stage": [...]}]`` (0-based lines,
    code-point columns) pairing each statement of the stage text with the source statement it
    came from; empty if the text does not parse back."""
    return _file_map(placed, _stage_pairs(stage_mod, text))


def _stage_pairs(stage_mod: Any, text: str) -> tuple[tuple[Span, Span], ...]:
    """(source span in unit coordinates, span in ``text``) of each statement of the stage."""
    lines = text.split("\n")
    first = next((i for i, ln in enumerate(lines) if ln.startswith("@")), None)
    if first is None:
        return ()
    from tirkit.lang import ir as I, tir as T  # pylint: disable=import-outside-toplevel

    back = analyze_unit("\n".join(lines[first:]), {"T": T, "I": I})
    if back.ir is None:
        return ()
    funcs = list(stage_mod.functions.values())
    stage_ir = funcs[0] if len(funcs) == 1 and not hasattr(back.ir, "functions") else stage_mod
    pairs: list[tuple[Span, Span]] = []
    _pairs(stage_ir, back.ir, pairs)
    return tuple((src, cast(Span, shift_span(dst, first))) for src, dst in pairs)


def _file_map(placed: PlacedUnit,
              pairs: tuple[tuple[Span, Span], ...]) -> list[dict[str, Any]]:
    out: dict[tuple, dict[str, Any]] = {}
    for unit_src, dst in pairs:
        src = cast(Span, placed.to_file(unit_src))
        entry = {"source": [src.line - 1, src.column, src.end_line - 1, src.end_column],
                 "stage": [dst.line - 1, dst.column, dst.end_line - 1, dst.end_column]}
        out.setdefault((*entry["source"], *entry["stage"]), entry)
    return sorted(out.values(), key=lambda e: e["stage"])


def llvm_payload(final_mod: Any, complete: bool = True) -> dict[str, Any]:
    """``{"available", "before", "after", "message"}``: LLVM IR of the fully lowered module,
    before and after optimisation for the host target."""
    if not complete:
        return {"available": False, "message": "LLVM IR needs the whole pipeline, which is "
                "not complete yet"}
    try:
        from tirkit.compiler.codegen.llvm import emit_llvm, optimize  # pylint: disable=import-outside-toplevel
        from tirkit.compiler.target import Target  # pylint: disable=import-outside-toplevel
    except ImportError as err:
        return {"available": False, "message": f"LLVM code generation is not available: {err}"}
    try:
        target = Target.host()
        before = emit_llvm(final_mod, target)
        return {"available": True, "before": before, "after": optimize(before, target)}
    except Exception as err:  # pylint: disable=broad-except
        return {"available": False, "message": f"code generation failed: {err}"}


def printed_stage(lowering: Lowering, index: int) -> PrintedStage:
    """Stage ``index`` of ``lowering`` printed (and parsed back for its position map) once: later
    requests, and stages whose pass returned the same module, reuse it."""
    hit = lowering.printed.get(index)
    if hit is None:
        mod = lowering.results[index].mod
        hit = next((p for j, p in lowering.printed.items()
                    if lowering.results[j].mod is mod), None)
        if hit is None:
            text = stage_text(mod)
            hit = PrintedStage(text, _stage_pairs(mod, text))
        lowering.printed[index] = hit
    return hit


def stage_payload(placed: PlacedUnit, lowering: Lowering, index: int,
                  with_llvm: bool = False) -> dict[str, Any]:
    """One stage of a unit: name, changed flag, TVMScript text, position map and (on request)
    the LLVM IR of the final stage's module before/after optimisation."""
    results = lowering.results
    if not 0 <= index < len(results):
        raise PreviewUnavailable(f"no stage {index}: the pipeline has {len(results)} stages")
    result = results[index]
    printed = printed_stage(lowering, index)
    payload: dict[str, Any] = {"index": index, "name": result.name,
                               "changed": bool(result.changed) or index == 0,
                               "text": printed.text, "unit": placed.unit.name,
                               "positionMap": _file_map(placed, printed.pairs)}
    if with_llvm:
        if lowering.llvm is None:
            lowering.llvm = llvm_payload(results[-1].mod, not lowering.note)
        payload["llvm"] = lowering.llvm
    return payload
