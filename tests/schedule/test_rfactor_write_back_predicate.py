"""rfactor's write-back block keeps the block's predicate over the loops it copies (before/after
TVMScript, the built kernel run with bound checks)."""
import numpy as np
import pytest

from tirkit.compiler import build
from tirkit.schedule import Schedule
from sched_util import check, parse

ROWSUM = parse("""
@T.prim_func
def main(A: T.Buffer((6, 8), "float32"), B: T.Buffer((6,), "float32")):
    for i, k in T.grid(6, 8):
        with T.block("B"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                B[vi] = T.float32(0)
            B[vi] = B[vi] + A[vi, vk]
""")

AFTER = """
@T.prim_func
def main(A: T.Buffer((6, 8), "float32"), B: T.Buffer((6,), "float32")):
    B_rf = T.alloc_buffer((4, 6))
    for i_0, i_1, k_0, k_1 in T.grid({outer}, {inner}, 2, 4):
        with T.block("B_rf"):
            vk_1 = T.axis.spatial(4, k_1)
            vi = T.axis.spatial(6, {binding})
            vk_0 = T.axis.reduce(2, k_0)
            T.where(i_0 * {inner} + i_1 < 6)
            T.reads(A[vi, vk_0 * 4 + vk_1])
            T.writes(B_rf[vk_1, vi])
            with T.init():
                B_rf[vk_1, vi] = T.float32(0)
            B_rf[vk_1, vi] = B_rf[vk_1, vi] + A[vi, vk_0 * 4 + vk_1]
    for {wb_loops} in T.grid({wb_extents}):
        with T.block("B"):
            vk_1 = T.axis.reduce(4, k_1)
            vi = T.axis.spatial(6, {binding})
            T.where({wb_pred})
            T.reads(B_rf[vk_1, vi])
            T.writes(B[vi])
            with T.init():
                B[vi] = T.float32(0)
            B[vi] = B[vi] + B_rf[vk_1, vi]
"""


@pytest.mark.parametrize("factor,after", [
    (4, dict(outer=2, inner=4, binding="i_0 * 4 + i_1", wb_loops="i_0, i_1, k_1",
             wb_extents="2, 4, 4", wb_pred="i_0 * 4 + i_1 < 6")),
    (16, dict(outer=1, inner=16, binding="i_1", wb_loops="i_1, k_1", wb_extents="16, 4",
              wb_pred="i_1 < 6")),
])
def test_rfactor_write_back_keeps_the_predicate(factor, after):
    """Found by the wide examples' fuzzer with bound checks (conv2d_nchw.py: split n (1) by 7,
    rfactor the innermost reduction loop: the write-back wrote out[144], OUT OF THE BOUNDS):
    the write-back block was made with no predicate, so a spatial loop split by a non-divisor
    ran it past the output. TVM 0.27 does the same (checked: split i (6) by 4, rfactor k_1, the
    write-back B has no T.where). It now has the block's clauses over the loops it keeps (a
    discarded loop of extent 1 replaced by its min, as decompose_reduction's init)."""
    sch = Schedule(ROWSUM)
    i, k = sch.get_loops("B")
    sch.split(i, [None, factor])
    _, k1 = sch.split(k, [None, 4])
    sch.rfactor(k1, 0)
    check(sch, ROWSUM, AFTER.format(**after))
    a = np.random.default_rng(0).standard_normal((6, 8)).astype("float32")
    b = np.full(6, np.nan, "float32")
    build(sch.mod, config={"tir.instrument_bound_checkers": True})["main"](a, b)
    np.testing.assert_allclose(b, a.sum(1), rtol=1e-5)
