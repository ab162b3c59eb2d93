"""Every case of tests/schedule gets the trace round trip (issue 11: "the trace round trip on
every case"): each Schedule a test builds is remembered with the module it started from, and
after the test its trace is replayed directly, through JSON and through ``as_python()``
(``verify_trace_roundtrip``); the replayed module must equal the test's. A test that already
called ``verify_trace_roundtrip`` on the schedule (most do, through ``sched_util.check``) is not
replayed a second time unless its trace grew since.
"""
from __future__ import annotations

import sys

import pytest

from tirkit.schedule import Schedule, testing

_ORIGINAL_INIT = Schedule.__init__
_ORIGINAL_VERIFY = testing.verify_trace_roundtrip


@pytest.fixture(autouse=True)
def _trace_roundtrip_on_every_case(monkeypatch):
    built: list[tuple[Schedule, object]] = []
    verified: dict[int, int] = {}
    replaying = [False]

    def init(self, mod_or_func, *args, **kwargs):
        _ORIGINAL_INIT(self, mod_or_func, *args, **kwargs)
        if not replaying[0]:
            built.append((self, mod_or_func))

    def verify(sch, mod, **kwargs):
        replaying[0] = True
        try:
            return _ORIGINAL_VERIFY(sch, mod, **kwargs)
        finally:
            replaying[0] = False
            verified[id(sch)] = len(sch.trace.insts)

    monkeypatch.setattr(Schedule, "__init__", init)
    for module in list(sys.modules.values()):  # test modules import the function by name
        if getattr(module, "verify_trace_roundtrip", None) is _ORIGINAL_VERIFY:
            monkeypatch.setattr(module, "verify_trace_roundtrip", verify)
    yield
    for sch, start in built:
        n = len(sch.trace.insts)
        if n and verified.get(id(sch)) != n:
            verify(sch, start)
