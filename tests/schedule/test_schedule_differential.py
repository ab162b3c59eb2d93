"""Differential tests: random schedules (split, reorder, fuse, compute_at, reverse_compute_at,
compute_inline, parallel, vectorize, unroll, decompose_reduction, rfactor) on random-sized
three-stage kernels. An illegal step must raise ScheduleError and leave the schedule unchanged;
the final schedule must replay from its trace and compile to a kernel giving the unscheduled
kernel's numbers."""
import os

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tirkit.compiler import build
from tirkit.schedule import Schedule, ScheduleError
from tirkit.schedule.testing import verify_trace_roundtrip

from sched_util import parse  # tests/schedule is on sys.path (rootdir-less test dir)

TEMPLATE = """
@T.prim_func
def main(A: T.Buffer(({m}, {n}), "float32"), C: T.Buffer(({m}, {n}), "float32"),
         D: T.Buffer(({m},), "float32")):
    B = T.alloc_buffer(({m}, {n}))
    for i, j in T.grid({m}, {n}):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] * T.float32(2) + T.float32(1)
    for i, j in T.grid({m}, {n}):
        with T.block("C"):
            vi, vj = T.axis.remap("SS", [i, j])
            C[vi, vj] = B[vi, vj] * B[vi, vj] - A[vi, vj]
    for i, k in T.grid({m}, {n}):
        with T.block("D"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                D[vi] = T.float32(0)
            D[vi] = D[vi] + C[vi, vk]
"""

ACTIONS = ["split", "reorder", "fuse", "compute_at", "reverse_compute_at", "compute_inline",
           "parallel", "vectorize", "unroll", "decompose_reduction", "rfactor"]


def _loops(sch, draw, name):
    return sch.get_loops(sch.get_block(name))


def _step(sch, draw, action):
    blocks = [sch.get(b).name_hint for b in sch.get_child_blocks(sch.get_block("root"))]
    name = draw(st.sampled_from(blocks))
    loops = _loops(sch, draw, name)
    pick = lambda seq: seq[draw(st.integers(0, len(seq) - 1))]  # noqa: E731
    if action == "split":
        sch.split(pick(loops), [None, draw(st.sampled_from([2, 3, 4, 8]))])
    elif action == "reorder":
        sch.reorder(*draw(st.permutations(loops)))
    elif action == "fuse" and len(loops) > 1:
        k = draw(st.integers(0, len(loops) - 2))
        sch.fuse(loops[k], loops[k + 1])
    elif action in ("compute_at", "reverse_compute_at"):
        other = draw(st.sampled_from(blocks))
        getattr(sch, action)(sch.get_block(name), pick(_loops(sch, draw, other)),
                             preserve_unit_loops=draw(st.booleans()))
    elif action == "compute_inline":
        sch.compute_inline(sch.get_block(name))
    elif action in ("parallel", "unroll"):
        getattr(sch, action)(pick(loops))
    elif action == "vectorize":
        sch.vectorize(loops[-1])
    elif action == "decompose_reduction":
        sch.decompose_reduction(sch.get_block(name), pick(loops))
    elif action == "rfactor":
        sch.rfactor(pick(loops), 0)


# SCHED_FUZZ=200 for a long run
@settings(max_examples=int(os.environ.get("SCHED_FUZZ", "8")), deadline=None,
          suppress_health_check=list(HealthCheck))
@given(st.data())
def test_random_schedules_keep_the_numbers(data):
    m, n = data.draw(st.sampled_from([8, 12, 16])), data.draw(st.sampled_from([6, 16, 24]))
    func = parse(TEMPLATE.format(m=m, n=n))
    sch = Schedule(func, seed=0)
    for action in data.draw(st.lists(st.sampled_from(ACTIONS), min_size=3, max_size=7)):
        before = sch.mod
        try:
            _step(sch, data.draw, action)
        except ScheduleError as err:
            assert sch.mod is before, f"{action} failed ({err}) but changed the module"
    verify_trace_roundtrip(sch, func, text_format="json")
    rng = np.random.default_rng(m * n)
    a = rng.uniform(-1, 1, (m, n)).astype("float32")
    outs = []
    for mod in (func, sch.mod):
        c, d = np.full((m, n), np.nan, "float32"), np.full(m, np.nan, "float32")
        build(mod, opt_level=1)["main"](a, c, d)
        outs.append((c, d))
    np.testing.assert_allclose(outs[1][0], outs[0][0], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(outs[1][1], outs[0][1], rtol=1e-4, atol=1e-5)
