"""Test helpers (mirrors ``tvm.tir.schedule.testing``): :func:`verify_trace_roundtrip`."""
from __future__ import annotations

import json
from typing import Any

from ..ir import assert_structural_equal
from .schedule import Schedule
from .trace import Trace


def verify_trace_roundtrip(sch: Schedule, mod: Any, *, debug_mask: str | int = "all",
                           text_format: Any = ("json", "python")) -> Schedule:
    """Replay ``sch.trace`` on a fresh Schedule of ``mod`` three ways — directly, through
    ``as_json``/``Trace.from_json`` (JSON text) and by running ``as_python()``'s lines — and check
    each result is structurally equal to ``sch.mod`` (``tvm.tir.schedule.testing.
    verify_trace_roundtrip``). Returns the directly replayed schedule.

    Raises:
        AssertionError: (``ValueError`` from ``assert_structural_equal``) when a replay differs.
    """
    formats = (text_format,) if isinstance(text_format, str) else tuple(text_format)
    trace = sch.trace
    new_sch = Schedule(mod, debug_mask=debug_mask)
    trace.apply_to_schedule(new_sch)
    assert_structural_equal(new_sch.mod, sch.mod)
    if "json" in formats:
        text = json.dumps(trace.as_json())
        again = Trace.from_json(json.loads(text))
        json_sch = Schedule(mod, debug_mask=debug_mask)
        again.apply_to_schedule(json_sch)
        assert_structural_equal(json_sch.mod, sch.mod)
        assert json.dumps(again.as_json()) == text, "as_json differs after from_json"
    if "python" in formats:
        py_sch = Schedule(mod, debug_mask=debug_mask)
        code = "\n".join(trace.as_python())
        exec(compile(code or "pass", "<trace>", "exec"),  # pylint: disable=exec-used
             {"sch": py_sch, "T": None})
        assert_structural_equal(py_sch.mod, sch.mod)
    return new_sch
