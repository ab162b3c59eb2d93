"""Schedule primitives and TVM 0.27's loop steps: a primitive whose block or loop is, encloses or
is inside a loop with a step other than 1 raises LoopStepError naming the loop and its step, the
schedule unchanged (TVM 0.27's primitives ignore the step: its ``split`` of ``range(0, 16, 4)``
would run the body 16 times); once ``CanonicalizeLoop`` rewrote the loop, primitives apply."""
from __future__ import annotations

import pytest

from tirkit.compiler.passes.canonicalize_loop import canonicalize_loop
from tirkit.lang import from_source
from tirkit.schedule import Schedule
from tirkit.schedule.errors import LoopStepError

SRC = '''from tvm.script import tirx as T


@T.prim_func(s_tir=True)
def f(A: T.Buffer((128,), "float32"), B: T.Buffer((128,), "float32"),
      C: T.Buffer((8,), "float32")):
    for i in range(0, 128, 4):
        for j in range(4):
            with T.sblock("b"):
                vi = T.axis.spatial(128, i + j)
                B[vi] = A[vi] + T.float32(1.0)
    for k in range(8):
        with T.sblock("c"):
            vk = T.axis.spatial(8, k)
            C[vk] = T.float32(0.0)
'''

PRIMITIVES = {
    "split the stepped loop": lambda s, b, i, j: s.split(i, [None, 2]),
    "split a loop inside it": lambda s, b, i, j: s.split(j, [2, 2]),
    "parallel": lambda s, b, i, j: s.parallel(i),
    "annotate": lambda s, b, i, j: s.annotate(i, "k", 1),
    "cache_read of a block inside it": lambda s, b, i, j: s.cache_read(b, 0, "local"),
    "reorder": lambda s, b, i, j: s.reorder(j, i),
    "compute_at under it": lambda s, b, i, j: s.compute_at(s.get_block("c"), j),
}


@pytest.mark.parametrize("name", list(PRIMITIVES))
def test_primitive_on_a_stepped_loop_is_refused_and_the_schedule_unchanged(name):
    sch = Schedule(from_source(SRC))
    b = sch.get_block("b")
    i, j = sch.get_loops(b)
    before, insts = sch.mod.script(), len(sch.trace.insts)
    with pytest.raises(LoopStepError, match='loop "i" steps by 4'):
        PRIMITIVES[name](sch, b, i, j)
    assert sch.mod.script() == before
    assert sch.trace.insts[insts:] in ([], [sch.trace.insts[-1]]) and \
        all(inst.kind.is_pure for inst in sch.trace.insts)  # (compute_at's get_block "c")


def test_primitives_elsewhere_and_after_canonicalize_loop_apply():
    sch = Schedule(from_source(SRC))
    (k,) = sch.get_loops(sch.get_block("c"))
    sch.split(k, [2, 4])  # not related to the stepped loop
    sch = Schedule(canonicalize_loop(from_source(SRC)))
    i, _ = sch.get_loops(sch.get_block("b"))
    sch.split(i, [None, 2])
    assert "for i_0, i_1, j in T.grid(16, 2, 4):" in sch.mod.script()
