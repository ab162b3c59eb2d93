"""What every ``tirc`` command shares: exit statuses, the error classes, diagnostics output, the
guard that turns any failure into a message and an exit status, and reading and parsing the input
file (``tirc``, ``tirc run`` and ``tirc tune`` all start from :func:`parse_module`).
"""
from __future__ import annotations

import json
import os
import sys
import traceback
from pathlib import Path
from typing import Any, Callable, Sequence

from tirkit.ir import IRModule
from tirkit.ir.diagnostics import Diagnostic, DiagnosticError, render_text

from .tirc_schedule import ScheduleFailure

__all__ = ["EXIT_OK", "EXIT_ERRORS", "EXIT_USAGE", "EXIT_INTERNAL", "UNIT_BUDGET", "REPORT",
           "EMITS", "UsageError", "CompileFailure", "diagnostic_json", "report", "fail",
           "guarded", "read_source", "parse_module"]

EXIT_OK, EXIT_ERRORS, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
UNIT_BUDGET = 60.0  # seconds of CPU time one TVMScript unit's analysis may take (--unit-budget)
REPORT = ("this is a tirkit bug, not a problem in your file: please report it with the input "
          "file and this message (TIRC_TRACEBACK=1 adds the Python traceback)")
EMITS = ("tir", "scheduled", "lowered", "llvm", "asm", "obj", "ptx")


class UsageError(Exception):
    """A bad command line or an unreadable file (exit 2)."""


class CompileFailure(Exception):
    """The input has errors (exit 1); carries every diagnostic."""

    def __init__(self, diagnostics: Sequence[Diagnostic], source: str | None, path: str) -> None:
        super().__init__(f"{len(diagnostics)} error(s)")
        self.diagnostics, self.source, self.path = list(diagnostics), source, path


# --------------------------------------------------------------------------- diagnostics
def diagnostic_json(diag: Diagnostic, path: str) -> dict[str, Any]:
    """One diagnostic as JSON data: 1-based line/column, end position, notes."""
    out: dict[str, Any] = {"path": path, "severity": str(diag.severity), "code": diag.code,
                           "message": diag.message}
    if diag.span is not None:
        s = diag.span
        out.update(line=s.line, column=s.column + 1, end_line=s.end_line,
                   end_column=s.end_column + 1)
    out["notes"] = [{"message": n.message,
                     **({"line": n.span.line, "column": n.span.column + 1} if n.span else {})}
                    for n in diag.notes]
    return out


def report(diags: Sequence[Diagnostic], source: str | None, path: str, fmt: str) -> None:
    """Print diagnostics on stderr as text (with source line and carets) or as one JSON object
    ``{"diagnostics": [...]}``."""
    if not diags:
        return
    if fmt == "json":
        print(json.dumps({"diagnostics": [diagnostic_json(d, path) for d in diags]}),
              file=sys.stderr)
    else:
        print(render_text(diags, source, path), file=sys.stderr)


def fail(code: str, message: str, path: str, fmt: str) -> None:
    """Report an error that has no source location (usage, internal) in the chosen format."""
    if fmt == "json":
        report([Diagnostic.error(code, None, message)], None, path, fmt)
    else:
        print(f"tirc: error: {message}", file=sys.stderr)


def guarded(fn: Callable[[], int], path: str, fmt: str) -> int:
    """Run a command body, turning every failure into a message and an exit status (contract 7:
    no traceback reaches the user)."""
    from tirkit.compiler.codegen.types import CodegenError  # pylint: disable=import-outside-toplevel
    from tirkit.compiler.passes.lower_match_buffer import (  # pylint: disable=import-outside-toplevel
        MatchBufferError)
    from tirkit.compiler.pipeline import PipelineError  # pylint: disable=import-outside-toplevel
    from tirkit.compiler.transform import IllFormedIRError  # pylint: disable=import-outside-toplevel

    try:
        return fn()
    except UsageError as err:
        fail("usage", str(err), path, fmt)
        return EXIT_USAGE
    except CompileFailure as err:
        report(err.diagnostics, err.source, err.path, fmt)
        return EXIT_ERRORS
    except ScheduleFailure as err:
        source = Path(path).read_text(encoding="utf-8") if Path(path).is_file() else None
        report(err.diagnostics, source, path, fmt)
        return EXIT_ERRORS
    except DiagnosticError as err:
        report(err.diagnostics, err.source, err.path or path, fmt)
        return EXIT_ERRORS
    except PipelineError as err:
        fail("pipeline", str(err), path, fmt)
        return EXIT_USAGE
    except CodegenError as err:  # a construct the target cannot compile: the message names it
        fail("codegen", str(err), path, fmt)
        return EXIT_ERRORS
    except MatchBufferError as err:  # a match_buffer whose constraints cannot hold (input)
        fail("match-buffer", str(err), path, fmt)
        return EXIT_ERRORS
    except IllFormedIRError as err:  # the input IR breaks a pass's precondition
        fail("ill-formed", f"ill-formed IR: {err}", path, fmt)
        return EXIT_ERRORS
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # tirc f.py | head: the reader is gone (an I/O error), quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_USAGE
    except Exception as err:  # pylint: disable=broad-except
        if os.environ.get("TIRC_TRACEBACK"):
            traceback.print_exc()
        fail("internal", f"internal error: {type(err).__name__}: {err}; {REPORT}", path, fmt)
        return EXIT_INTERNAL


# --------------------------------------------------------------------------- input
def read_source(path: str) -> tuple[str, str]:
    """The text of ``path`` (``-`` reads stdin) and the name diagnostics use for it."""
    if path == "-":
        return sys.stdin.read(), "<stdin>"
    try:
        return Path(path).read_text(encoding="utf-8"), path
    except (OSError, UnicodeDecodeError) as err:
        raise UsageError(f"cannot read {path}: {err}") from None


def _unit_functions(unit: Any) -> dict[str, Any]:
    if isinstance(unit.ir, IRModule):
        return {gv.name_hint: f for gv, f in unit.ir.items()}
    return {str(unit.ir.attrs.get("global_symbol", unit.name)): unit.ir}


def parse_module(source: str, path: str, entry: str | None = None,
                 fmt: str = "text", unit_budget: float | None = UNIT_BUDGET) -> IRModule:
    """Parse every TVMScript unit of the file statically into one IRModule (functions by
    global symbol); with ``entry``, only the unit defining that function. A unit whose analysis
    takes longer than ``unit_budget`` seconds (``None``: no limit) is stopped with a ``budget``
    diagnostic; the other units are still analysed and reported.

    Raises:
        CompileFailure: the file has errors, or no unit, or two functions with one name.
        UsageError: ``entry`` names no function of the file.
    """
    from tirkit.lang import parse_file  # pylint: disable=import-outside-toplevel

    units = parse_file(source, path, unit_budget=unit_budget)
    diags = [d for u in units for d in u.diagnostics]
    errors = [d for d in diags if d.severity == 1]
    if errors:
        raise CompileFailure(diags, source, path)
    report(diags, source, path, fmt)  # warnings only
    funcs: dict[str, Any] = {}
    owner: dict[str, Any] = {}
    for unit in (u for u in units if u.ir is not None):
        for name, func in _unit_functions(unit).items():
            if name in funcs:
                raise CompileFailure([Diagnostic.error(
                    "duplicate-function", unit.span,
                    f"function {name!r} is defined twice in this file")], source, path)
            funcs[name], owner[name] = func, unit
    if not funcs:
        raise CompileFailure([Diagnostic.error(
            "no-unit", None, "no @T.prim_func or @I.ir_module found")], source, path)
    if entry is None:
        return IRModule(funcs)
    if entry not in funcs:
        raise UsageError(f"--entry {entry!r}: no such function in {path}; "
                         f"functions: {', '.join(sorted(funcs))}")
    unit = owner[entry]
    return unit.ir if isinstance(unit.ir, IRModule) else IRModule({entry: funcs[entry]})
