"""reverse_compute_at of a reduction consumer under a loop that produces part of what it
reads: the consumer's reduction iter var is narrowed to the produced region, as TVM's
CalculateBlockVarDomain does for every block var (found by test_schedule_differential: the
consumer used to re-read the whole row at every producer iteration, reading values not yet
written)."""
import numpy as np

from tirkit.compiler import build
from tirkit.schedule import Schedule
from tirkit.schedule.testing import verify_trace_roundtrip

from sched_util import check, parse  # tests/schedule is on sys.path (rootdir-less test dir)

ROWS = parse("""
@T.prim_func
def main(A: T.Buffer((8, 6), "float32"), D: T.Buffer((8,), "float32")):
    C = T.alloc_buffer((8, 6))
    for i, j in T.grid(8, 6):
        with T.block("C"):
            vi, vj = T.axis.remap("SS", [i, j])
            C[vi, vj] = A[vi, vj] * T.float32(2)
    for i, k in T.grid(8, 6):
        with T.block("D"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                D[vi] = T.float32(0)
            D[vi] = D[vi] + C[vi, vk]
""")


def test_reverse_compute_at_narrows_the_reduction_to_the_produced_element():
    sch = Schedule(ROWS)
    _, j = sch.get_loops(sch.get_block("C"))
    sch.reverse_compute_at(sch.get_block("D"), j)
    check(sch, ROWS, """
    @T.prim_func
    def main(A: T.Buffer((8, 6), "float32"), D: T.Buffer((8,), "float32")):
        C = T.alloc_buffer((8, 6))
        for i, j in T.grid(8, 6):
            with T.block("C"):
                vi, vj = T.axis.remap("SS", [i, j])
                C[vi, vj] = A[vi, vj] * T.float32(2)
            with T.block("D"):
                vi, vk = T.axis.remap("SR", [i, j])
                with T.init():
                    D[vi] = T.float32(0)
                D[vi] = D[vi] + C[vi, vk]
    """)
    verify_trace_roundtrip(sch, ROWS)
    a = np.random.default_rng(3).uniform(-1, 1, (8, 6)).astype("float32")
    d = np.full(8, np.nan, "float32")
    build(sch.mod)["main"](a, d)
    np.testing.assert_allclose(d, (2 * a).sum(axis=1), rtol=1e-5)
