"""``tirc --schedule FILE[:FUNC]`` and ``tirc --trace FILE.json``: apply a TensorIR schedule to
the parsed kernel before compiling (DESIGN.md §5).

``--schedule`` is the one place tirc runs user code, and only because the user asked: it
imports the schedule script and calls ``FUNC(sch)`` (default ``schedule``) with a
``tirkit.schedule.Schedule`` of the kernel module. ``--trace`` applies a JSON trace
(``Trace.as_json``) and executes nothing. A ``ScheduleError`` becomes a diagnostic at the
block/loop it names in the kernel source (with the schedule script's line as a note), exit 1.
"""
from __future__ import annotations

import importlib.util
import json
import sys
import traceback
from pathlib import Path
from typing import Any, Callable

from tirkit.ir import IRModule
from tirkit.ir.diagnostics import Diagnostic, Note

DEFAULT_FUNCTION = "schedule"


class ScheduleFailure(Exception):
    """The schedule did not apply (exit 1); carries the diagnostics."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__(diagnostics[0].message if diagnostics else "schedule failed")
        self.diagnostics = diagnostics


def split_spec(spec: str) -> tuple[str, str]:
    """``"sched.py:fn"`` -> ``("sched.py", "fn")``; the function defaults to ``schedule``."""
    path, sep, func = spec.rpartition(":")
    if not sep or not func.isidentifier() or not path:
        return spec, DEFAULT_FUNCTION
    return path, func


def _script_note(tb: Any, script: str) -> list[Note]:
    frames = [f for f in traceback.extract_tb(tb) if Path(f.filename).resolve() ==
              Path(script).resolve()]
    if not frames:
        return []
    f = frames[-1]
    return [Note(f"in {script}:{f.lineno} ({f.name}): {(f.line or '').strip()}")]


def _schedule_error(exc: Any, notes: list[Note]) -> ScheduleFailure:
    where = [f"{type(loc).__name__} {_name(loc)}" for loc in exc.locations]
    msg = str(exc)
    if where and exc.span is None:
        msg += f" (at {', '.join(where)})"
    return ScheduleFailure([Diagnostic.error("schedule", exc.span, msg, notes)])


def _name(loc: Any) -> str:
    from tirkit.schedule.errors import describe  # pylint: disable=import-outside-toplevel
    return describe(loc)


def load_function(spec: str) -> Callable[[Any], Any]:
    """Import the schedule script (running it: the user opted in) and return its function.

    Raises:
        ScheduleFailure: the script cannot be read or run, or has no such function.
    """
    path, func = split_spec(spec)
    if not Path(path).is_file():
        raise ScheduleFailure([Diagnostic.error("schedule", None,
                                                f"--schedule: cannot read {path}")])
    module_spec = importlib.util.spec_from_file_location("_tirc_schedule_script", path)
    module = importlib.util.module_from_spec(module_spec)  # type: ignore[arg-type]
    try:
        module_spec.loader.exec_module(module)  # type: ignore[union-attr]
    except Exception as exc:  # pylint: disable=broad-except
        raise ScheduleFailure([Diagnostic.error(
            "schedule", None, f"--schedule: running {path} failed: {type(exc).__name__}: {exc}",
            _script_note(sys.exc_info()[2], path))]) from None
    fn = getattr(module, func, None)
    if not callable(fn):
        raise ScheduleFailure([Diagnostic.error(
            "schedule", None, f"--schedule: {path} has no function {func!r} "
            f"(give it as {path}:NAME)")])
    return fn


def apply_schedule(mod: IRModule, schedule: str | None, trace: str | None) -> IRModule:
    """The module after ``--schedule`` and/or ``--trace`` (unchanged when neither is given).

    Raises:
        ScheduleFailure: a schedule error (at the block/loop in the kernel source), an error in
            the schedule script, or an unreadable trace.
    """
    from tirkit.schedule import Schedule, ScheduleError  # pylint: disable=C0415
    if schedule is None and trace is None:
        return mod
    sch, renamed = (Schedule(mod), None) if trace is None else _apply_trace(mod, trace)
    if schedule is not None:
        fn = load_function(schedule)
        path = split_spec(schedule)[0]
        try:
            fn(sch)
        except ScheduleError as exc:
            raise _schedule_error(exc, _script_note(sys.exc_info()[2], path)) from None
        except Exception as exc:  # pylint: disable=broad-except
            raise ScheduleFailure([Diagnostic.error(
                "schedule", None, f"--schedule: {type(exc).__name__}: {exc}",
                _script_note(sys.exc_info()[2], path))]) from None
    return sch.mod if renamed is None else IRModule({renamed: sch.mod["main"]})


def _apply_trace(mod: IRModule, trace: str) -> tuple[Any, str | None]:
    """A Schedule of ``mod`` with the JSON trace applied, and the name its only function had
    when the trace only applies with that function named ``main`` (a trace recorded on
    ``Schedule(prim_func)`` says ``func_name="main"``, as TVM's does); else ``None``."""
    from tirkit.schedule import Schedule, ScheduleError, Trace  # pylint: disable=C0415
    try:
        loaded = Trace.from_json(json.loads(Path(trace).read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError) as exc:
        raise ScheduleFailure([Diagnostic.error("schedule", None,
                                                f"--trace {trace}: {exc}")]) from None
    sch = Schedule(mod)
    try:
        loaded.apply_to_schedule(sch)
        return sch, None
    except ScheduleError as exc:
        first = exc
    names = [gv.name_hint for gv in mod.functions]
    if len(names) == 1 and names[0] != "main":
        sch = Schedule(IRModule({"main": mod[names[0]]}))
        try:
            loaded.apply_to_schedule(sch)
            return sch, names[0]
        except ScheduleError:
            pass
    raise _schedule_error(first, [Note(f"while applying --trace {trace}")]) from None


def apply_tuned(mod: IRModule, db: str | None) -> IRModule:
    """The module with each kernel replaced by the best schedule ``tirc tune`` recorded in the
    database ``db`` (unchanged when None; kernels without records are kept).

    Raises:
        ScheduleFailure: the database cannot be read, or a recorded trace no longer applies.
    """
    if db is None:
        return mod
    import sqlite3  # pylint: disable=import-outside-toplevel

    from tirkit.schedule import ScheduleError  # pylint: disable=import-outside-toplevel
    from tirkit.tune import Database, apply_best  # pylint: disable=import-outside-toplevel
    if not Path(db).is_file():
        raise ScheduleFailure([Diagnostic.error("schedule", None, f"--db {db}: no such file")])
    try:
        with Database(db) as database:
            return apply_best(mod, database)
    except sqlite3.Error as exc:
        raise ScheduleFailure([Diagnostic.error("schedule", None, f"--db {db}: {exc}")]) \
            from None
    except ScheduleError as exc:
        raise _schedule_error(exc, [Note(f"while applying the best trace of --db {db}")]) \
            from None
