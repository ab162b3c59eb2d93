"""read_at and write_at: before/after TVMScript, compiled and compared with NumPy, error cases,
trace round trip."""
import numpy as np
import pytest

from tirkit.compiler import build
from tirkit.schedule import Schedule, errors
from tirkit.schedule.testing import verify_trace_roundtrip
from sched_util import check, parse

TILED = parse("""
@T.prim_func
def main(A: T.Buffer((64, 64), "float32"), B: T.Buffer((64, 64), "float32"),
         C: T.Buffer((64, 64), "float32")):
    for i0, j0 in T.grid(4, 4):
        for k, i1, j1 in T.grid(64, 16, 16):
            with T.block("C"):
                vi = T.axis.spatial(64, i0 * 16 + i1)
                vj = T.axis.spatial(64, j0 * 16 + j1)
                vk = T.axis.reduce(64, k)
                with T.init():
                    C[vi, vj] = T.float32(0)
                C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
""")


def test_read_at_and_write_at():
    sch = Schedule(TILED)
    _, j0, _, _, _ = sch.get_loops("C")
    copy_in = sch.read_at(j0, "C", 0, "shared")
    copy_out = sch.write_at(j0, "C", 0, "local")
    assert sch.get(copy_in).name_hint == "A_shared" and sch.get(copy_out).name_hint == "C_local"
    check(sch, TILED, """
    @T.prim_func
    def main(A: T.Buffer((64, 64), "float32"), B: T.Buffer((64, 64), "float32"),
             C: T.Buffer((64, 64), "float32")):
        A_shared = T.alloc_buffer((64, 64), scope="shared")
        C_local = T.alloc_buffer((64, 64), scope="local")
        for i0, j0 in T.grid(4, 4):
            with T.block("A_shared"):
                v0 = T.axis.spatial(4, i0)
                T.reads(A[v0 * 16:v0 * 16 + 16, 0:64])
                T.writes(A_shared[v0 * 16:v0 * 16 + 16, 0:64])
                T.block_attr({"auto_copy": 1})
                for ax0, ax1 in T.grid(16, 64):
                    A_shared[v0 * 16 + ax0, ax1] = A[v0 * 16 + ax0, ax1]
            for k, i1, j1 in T.grid(64, 16, 16):
                with T.block("C"):
                    vi = T.axis.spatial(64, i0 * 16 + i1)
                    vj = T.axis.spatial(64, j0 * 16 + j1)
                    vk = T.axis.reduce(64, k)
                    T.reads(A_shared[vi, vk], B[vk, vj])
                    T.writes(C_local[vi, vj])
                    with T.init():
                        C_local[vi, vj] = T.float32(0)
                    C_local[vi, vj] = C_local[vi, vj] + A_shared[vi, vk] * B[vk, vj]
            with T.block("C_local"):
                v0, v1 = T.axis.remap("SS", [i0, j0])
                T.reads(C_local[v0 * 16:v0 * 16 + 16, v1 * 16:v1 * 16 + 16])
                T.writes(C[v0 * 16:v0 * 16 + 16, v1 * 16:v1 * 16 + 16])
                T.block_attr({"auto_copy": 1})
                for ax0, ax1 in T.grid(16, 16):
                    C[v0 * 16 + ax0, v1 * 16 + ax1] = C_local[v0 * 16 + ax0, v1 * 16 + ax1]
    """)
    rng = np.random.default_rng(0)
    a, b = (rng.standard_normal((64, 64)).astype("float32") for _ in range(2))
    c = np.full((64, 64), np.nan, "float32")
    build(sch.mod)["main"](a, b, c)
    np.testing.assert_allclose(c, a @ b, rtol=1e-4, atol=1e-4)


TWO_NESTS = parse("""
@T.prim_func
def main(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
    for i in range(8):
        with T.block("A"):
            vi = T.axis.remap("S", [i])
            A[vi] = T.float32(1)
    for i in range(8):
        with T.block("B"):
            vi = T.axis.remap("S", [i])
            B[vi] = A[vi]
""")


@pytest.mark.parametrize("call,error,text", [
    (lambda s: s.read_at(s.get_loops("A")[0], "B", 0, "shared"), errors.LoopPositionError,
     "not above the block"),
    (lambda s: s.write_at(s.get_loops("B")[0], "B", 3, "local"),
     errors.BufferIndexOutOfRangeError, "write buffer index 3"),
    (lambda s: s.read_at(s.get_loops("B")[0], "B", 0, "nowhere"), errors.InvalidScopeError,
     "'nowhere' is invalid"),
])
def test_read_write_at_errors(call, error, text):
    sch = Schedule(TWO_NESTS)
    before = sch.mod
    with pytest.raises(error, match=text):
        call(sch)
    assert sch.mod is before
    verify_trace_roundtrip(sch, TWO_NESTS)


GUARDED = parse("""
@T.prim_func
def main(A: T.Buffer((6,), "float32"), C: T.Buffer((6,), "float32")):
    P = T.alloc_buffer((8,))
    for i in range(8):
        with T.block("P"):
            vi = T.axis.spatial(8, i)
            P[vi] = T.if_then_else(1 <= vi and vi < 7, A[vi - 1], T.float32(0))
    for i in range(6):
        with T.block("C"):
            vi = T.axis.spatial(6, i)
            C[vi] = P[vi] + P[vi + 2]
""")


def _guarded_numbers(sch):
    a = np.arange(1, 7, dtype="float32")
    c = np.zeros(6, "float32")
    build(sch.mod, config={"tir.instrument_bound_checkers": True})["main"](a, c)
    np.testing.assert_allclose(c, np.pad(a, 1)[:6] + np.pad(a, 1)[2:])


def test_read_at_of_a_guarded_read_copies_only_the_buffer():
    """Found by the wide fuzzer with bound checkers (topi_conv2d_nhwc, read_at of PadInput's
    read of data: SCHED_FUZZ_BOUNDS=1 --hypothesis-seed=7): the region relaxed over the loop
    was data[-1:5], so the copy read data[-1]. It is clamped to the buffer now; the guarded
    element is never read."""
    sch = Schedule(GUARDED)
    sch.read_at(sch.get_loops("P")[0], sch.get_block("P"), 0, "global")
    assert "A[T.max(v0 - 1, 0):" in sch.mod.script()
    verify_trace_roundtrip(sch, GUARDED)
    _guarded_numbers(sch)


def test_write_at_after_a_split_with_a_tail_copies_only_the_buffer():
    """Found by the wide fuzzer (fuzz_kernels.py's two_consumers: split by 16 of a 6-row loop,
    then write_at at the outer loop; SCHED_FUZZ_ONLY=... --hypothesis-seed=8): the write region
    relaxed over the inner loop ignored the predicate (rows 0..15 of a 6-row buffer), and the
    copy back wrote out of bounds and the outputs were wrong. Clamped to the buffer now."""
    sch = Schedule(GUARDED)
    outer, _ = sch.split(sch.get_loops("C")[0], [None, 16])
    sch.write_at(outer, sch.get_block("C"), 0, "global")
    assert "C[0:6]" in sch.mod.script()
    verify_trace_roundtrip(sch, GUARDED)
    _guarded_numbers(sch)


MATMUL = parse("""
@T.prim_func
def main(A: T.Buffer((8, 8), "float32"), B: T.Buffer((8, 8), "float32"),
         C: T.Buffer((8, 8), "float32")):
    for i, j, k in T.grid(8, 8, 8):
        with T.block("C"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
""")


@pytest.mark.parametrize("at", [0, 1, 2])
def test_write_at_of_an_update_without_init_is_read_modify_write(at):
    """Found by the wide fuzzer (matmul_naive.py: decompose_reduction, then write_at of
    C_update, --hypothesis-seed=9; bmm_bias_relu, bounds seed 7): the update read C_global,
    which nothing under the loop had written (C_init wrote C), so 399 of 400 outputs were
    wrong. TVM 0.27 applies it."""
    sch = Schedule(MATMUL)
    sch.decompose_reduction("C", sch.get_loops("C")[0])
    loop = sch.get_loops("C_update")[at]
    before = sch.mod
    with pytest.raises(errors.ScheduleError, match='block "C_update" reads and writes C: '
                       "write_at would make it read C_global before anything under the loop"):
        sch.write_at(loop, sch.get_block("C_update"), 0, "global")
    assert sch.mod is before


def test_write_at_over_the_init_and_the_update_keeps_the_numbers():
    sch = Schedule(MATMUL)
    sch.decompose_reduction("C", sch.get_loops("C")[1])  # C_init inside loop i
    sch.write_at(sch.get_loops("C_update")[0], sch.get_block("C_update"), 0, "global")
    verify_trace_roundtrip(sch, MATMUL)
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((8, 8), "float32"), rng.standard_normal((8, 8), "float32")
    c = np.full((8, 8), np.nan, "float32")
    build(sch.mod)["main"](a, b, c)
    np.testing.assert_allclose(c, a @ b, rtol=1e-5, atol=1e-5)


def test_write_at_of_a_block_under_a_predicate_is_partial_write():
    """Found by the wide fuzzer (max_pool_relu: transform_layout of the pooled buffer with a
    pad_value, then write_at of the padding block; --hypothesis-seed=10): the padding block
    writes only where its predicate holds, the copy back covered its whole relaxed region and
    overwrote the pooled values (all 36 outputs wrong)."""
    func = parse("""
    @T.prim_func
    def main(A: T.Buffer((6,), "float32"), C: T.Buffer((6,), "float32")):
        P = T.alloc_buffer((6,))
        for i in range(6):
            with T.block("P"):
                vi = T.axis.spatial(6, i)
                P[vi] = A[vi] * T.float32(2)
        for i in range(6):
            with T.block("C"):
                vi = T.axis.spatial(6, i)
                C[vi] = P[vi] + T.float32(1)
    """)
    sch = Schedule(func)
    sch.transform_layout("P", ("write", 0), lambda i: (i // 4, i % 4), pad_value=0.0)
    pad = sch.get_block("buffer_P_padding")
    loop = sch.get_loops(pad)[0]
    before = sch.mod
    with pytest.raises(errors.ScheduleError, match='block "buffer_P_padding" does not write P '
                       "at every point.*write_at copies the relaxed region back whole"):
        sch.write_at(loop, pad, 0, "global")
    assert sch.mod is before
