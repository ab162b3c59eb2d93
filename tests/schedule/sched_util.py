"""Helpers for the schedule tests: parse TVMScript text, check before/after and trace round trip."""
import textwrap


from tirkit.ir import assert_structural_equal
from tirkit.lang import from_source
from tirkit.schedule.testing import verify_trace_roundtrip

HEADER = "from tvm.script import tir as T\n\n"


def parse(src: str):
    """A PrimFunc from a TVMScript snippet (the T import is added)."""
    return from_source(HEADER + textwrap.dedent(src), "case.py")


def check(sch, before, after_src):
    """The scheduled function equals ``after_src`` and the trace replays to the same module."""
    after = parse(after_src) if isinstance(after_src, str) else after_src
    assert_structural_equal(sch.mod["main"], after)
    verify_trace_roundtrip(sch, before)


