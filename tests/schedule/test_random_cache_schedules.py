"""Random schedules (hypothesis) mixing cache_read/cache_write/reindex/transform_layout with
split/reorder/fuse/compute_at on a small two-stage kernel: every schedule that applies compiles
and gives the unscheduled kernel's numbers; every one that does not raises a ScheduleError and
leaves the schedule as it was; the trace replays to the same module."""
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tirkit.compiler import build
from tirkit.schedule import Schedule, ScheduleError
from tirkit.schedule.testing import verify_trace_roundtrip
from sched_util import parse

N = 24
KERNEL = parse(f"""
@T.prim_func
def main(A: T.Buffer(({N}, {N}), "float32"), W: T.Buffer(({N},), "float32"),
         C: T.Buffer(({N}, {N}), "float32")):
    B = T.alloc_buffer(({N}, {N}))
    for i, j in T.grid({N}, {N}):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] * W[vj]
    for i, j in T.grid({N}, {N}):
        with T.block("C"):
            vi, vj = T.axis.remap("SS", [i, j])
            C[vi, vj] = B[vi, vj] + A[vj, vi]
""")


def _reference(a, w):
    return a * w[None, :] + a.T


def _split(sch, data):
    block = data.draw(st.sampled_from(["B", "C"]))
    loops = sch.get_loops(block)
    loop = data.draw(st.sampled_from(loops))
    sch.split(loop, [None, data.draw(st.sampled_from([2, 3, 4, 8]))])


def _reorder(sch, data):
    loops = sch.get_loops(data.draw(st.sampled_from(["B", "C"])))
    if len(loops) >= 2:
        sch.reorder(*data.draw(st.permutations(loops)))


def _fuse(sch, data):
    loops = sch.get_loops(data.draw(st.sampled_from(["B", "C"])))
    if len(loops) >= 2:
        k = data.draw(st.integers(0, len(loops) - 2))
        sch.fuse(loops[k], loops[k + 1])


def _compute_at(sch, data):
    loops = sch.get_loops("C")
    sch.compute_at("B", data.draw(st.sampled_from(loops)))


def _cache_read(sch, data):
    block, index = data.draw(st.sampled_from([("C", 0), ("C", 1), ("B", 0), ("B", 1)]))
    sch.cache_read(block, index, data.draw(st.sampled_from(["global", "local"])))


def _cache_write(sch, data):
    sch.cache_write(data.draw(st.sampled_from(["B", "C"])), 0, "global")


def _reindex(sch, data):
    sch.reindex("C", data.draw(st.sampled_from([("read", 0), ("read", 1), ("write", 0)])))


def _layout(sch, data):
    f = data.draw(st.sampled_from([4, 6, 8]))
    sch.transform_layout("B", ("write", 0), lambda i, j: (j // f, i, j % f))


OPS = [_split, _reorder, _fuse, _compute_at, _cache_read, _cache_write, _reindex, _layout]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_schedules_keep_the_numbers(data):
    sch = Schedule(KERNEL)
    for _ in range(data.draw(st.integers(1, 5))):
        op = data.draw(st.sampled_from(OPS))
        before = sch.mod
        try:
            op(sch, data)
        except ScheduleError:
            assert sch.mod is before
    verify_trace_roundtrip(sch, KERNEL, text_format="json")
    rng = np.random.default_rng(0)
    a = rng.standard_normal((N, N)).astype("float32")
    w = rng.standard_normal(N).astype("float32")
    c = np.full((N, N), np.nan, "float32")
    build(sch.mod)["main"](a, w, c)
    np.testing.assert_allclose(c, _reference(a, w), rtol=1e-5, atol=1e-5)
