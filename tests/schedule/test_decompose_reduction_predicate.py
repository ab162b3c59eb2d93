"""decompose_reduction keeps the init block inside its domain when the update's predicate uses
a loop the init does not copy (before/after TVMScript, the built kernel run with bound checks)."""
import numpy as np

from tirkit.compiler import build
from tirkit.schedule import Schedule
from sched_util import check, parse

ROWSUM = parse("""
@T.prim_func
def main(A: T.Buffer((6, 5), "float32"), B: T.Buffer((6,), "float32")):
    for i, k in T.grid(6, 5):
        with T.block("B"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                B[vi] = T.float32(0)
            B[vi] = B[vi] + A[vi, vk]
""")

MIXED = parse("""
@T.prim_func
def main(A: T.Buffer((6, 5), "float32"), B: T.Buffer((6,), "float32")):
    for i, k in T.grid(8, 5):
        with T.block("B"):
            vi = T.axis.spatial(6, i)
            vk = T.axis.reduce(5, k)
            T.where(i * 5 + k < 30)
            with T.init():
                B[vi] = T.float32(0)
            B[vi] = B[vi] + A[vi, vk]
""")


def _run_checked(sch):
    a = np.random.default_rng(0).standard_normal((6, 5)).astype("float32")
    b = np.full(6, np.nan, "float32")
    build(sch.mod, config={"tir.instrument_bound_checkers": True})["main"](a, b)
    np.testing.assert_allclose(b, a.sum(1), rtol=1e-5)


def test_init_keeps_the_clause_of_a_discarded_unit_loop():
    """Found by the wide examples' fuzzer with bound checks (conv2d_nchw.py: split y (6) by 16,
    reindex the output, decompose_reduction at the outermost loop: conv_init wrote
    out_reindex[144], OUT OF THE BOUNDS). split simplifies the binding i_0 * 16 + i_1 to i_1
    (i_0 has extent 1), so the init copies only i_1, and the clause i_0 * 16 + i_1 < 6 -- the
    only bound of i_1 -- was dropped with i_0. TVM keeps i_0 * 16 + i_1 in the binding, so it
    copies i_0 and keeps the clause; here i_0 is replaced by its min and the clause stays."""
    sch = Schedule(ROWSUM)
    i0, _ = sch.split(sch.get_loops("B")[0], [None, 16])
    sch.decompose_reduction("B", i0)
    check(sch, ROWSUM, """
    @T.prim_func
    def main(A: T.Buffer((6, 5), "float32"), B: T.Buffer((6,), "float32")):
        for i_1_init in range(16):
            with T.block("B_init"):
                vi = T.axis.spatial(6, i_1_init)
                T.where(i_1_init < 6)
                T.reads()
                T.writes(B[vi])
                B[vi] = T.float32(0)
        for i_0, i_1, k in T.grid(1, 16, 5):
            with T.block("B_update"):
                vi = T.axis.spatial(6, i_1)
                vk = T.axis.reduce(5, k)
                T.where(i_0 * 16 + i_1 < 6)
                T.reads(B[vi], A[vi, vk])
                T.writes(B[vi])
                B[vi] = B[vi] + A[vi, vk]
    """)
    _run_checked(sch)


def test_init_stays_in_its_domain_when_a_clause_is_dropped():
    """A clause over a copied and a discarded loop (i * 5 + k < 30, k is a reduction loop) is
    dropped as TVM's RewriteInitPredicate drops it; the init then keeps vi in [0, 6) itself
    (without it B_init wrote B[6] and B[7]). TVM 0.27 refuses this block (its binding is not
    quasi-affine under its reduction-block check), tirkit accepts it."""
    sch = Schedule(MIXED)
    sch.decompose_reduction("B", sch.get_loops("B")[0])
    check(sch, MIXED, """
    @T.prim_func
    def main(A: T.Buffer((6, 5), "float32"), B: T.Buffer((6,), "float32")):
        for i_init in range(8):
            with T.block("B_init"):
                vi = T.axis.spatial(6, i_init)
                T.where(i_init < 6)
                T.reads()
                T.writes(B[vi])
                B[vi] = T.float32(0)
        for i, k in T.grid(8, 5):
            with T.block("B_update"):
                vi = T.axis.spatial(6, i)
                vk = T.axis.reduce(5, k)
                T.where(i * 5 + k < 30)
                T.reads(B[vi], A[vi, vk])
                T.writes(B[vi])
                B[vi] = B[vi] + A[vi, vk]
    """)
    _run_checked(sch)
