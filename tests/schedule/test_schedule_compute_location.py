"""compute_at, reverse_compute_at, compute_inline, reverse_compute_inline: before/after, error
cases, trace round trip."""
import pytest

from tirkit.schedule import Schedule, errors

from sched_util import check, parse  # tests/schedule is on sys.path (rootdir-less test dir)

TWO_STAGE = parse("""
@T.prim_func
def main(A: T.Buffer((128, 128), "float32"), C: T.Buffer((128, 128), "float32")):
    B = T.alloc_buffer((128, 128))
    for i, j in T.grid(128, 128):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] * T.float32(2)
    for i, j in T.grid(128, 128):
        with T.block("C"):
            vi, vj = T.axis.remap("SS", [i, j])
            C[vi, vj] = B[vi, vj] + T.float32(1)
""")


def test_compute_at_tile():
    sch = Schedule(TWO_STAGE)
    i, _ = sch.get_loops("C")
    i0, _ = sch.split(i, [None, 16])
    sch.compute_at(sch.get_block("B"), i0)
    check(sch, TWO_STAGE, """
    @T.prim_func
    def main(A: T.Buffer((128, 128), "float32"), C: T.Buffer((128, 128), "float32")):
        B = T.alloc_buffer((128, 128))
        for i_0 in range(8):
            for ax0, ax1 in T.grid(16, 128):
                with T.block("B"):
                    vi = T.axis.spatial(128, i_0 * 16 + ax0)
                    vj = T.axis.spatial(128, ax1)
                    B[vi, vj] = A[vi, vj] * T.float32(2)
            for i_1, j in T.grid(16, 128):
                with T.block("C"):
                    vi = T.axis.spatial(128, i_0 * 16 + i_1)
                    vj = T.axis.spatial(128, j)
                    C[vi, vj] = B[vi, vj] + T.float32(1)
    """)


def test_compute_at_innermost_preserve_unit_loops():
    for preserve, expected in ((False, """
    @T.prim_func
    def main(A: T.Buffer((128, 128), "float32"), C: T.Buffer((128, 128), "float32")):
        B = T.alloc_buffer((128, 128))
        for i, j in T.grid(128, 128):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = A[vi, vj] * T.float32(2)
            with T.block("C"):
                vi, vj = T.axis.remap("SS", [i, j])
                C[vi, vj] = B[vi, vj] + T.float32(1)
    """), (True, """
    @T.prim_func
    def main(A: T.Buffer((128, 128), "float32"), C: T.Buffer((128, 128), "float32")):
        B = T.alloc_buffer((128, 128))
        for i, j in T.grid(128, 128):
            for ax0, ax1 in T.grid(1, 1):
                with T.block("B"):
                    vi = T.axis.spatial(128, i + ax0)
                    vj = T.axis.spatial(128, j + ax1)
                    B[vi, vj] = A[vi, vj] * T.float32(2)
            with T.block("C"):
                vi, vj = T.axis.remap("SS", [i, j])
                C[vi, vj] = B[vi, vj] + T.float32(1)
    """)):
        sch = Schedule(TWO_STAGE)
        sch.compute_at(sch.get_block("B"), sch.get_loops("C")[1], preserve_unit_loops=preserve)
        check(sch, TWO_STAGE, expected)


def test_reverse_compute_at():
    sch = Schedule(TWO_STAGE)
    i, _ = sch.get_loops("B")
    sch.reverse_compute_at(sch.get_block("C"), i)
    check(sch, TWO_STAGE, """
    @T.prim_func
    def main(A: T.Buffer((128, 128), "float32"), C: T.Buffer((128, 128), "float32")):
        B = T.alloc_buffer((128, 128))
        for i in range(128):
            for j in range(128):
                with T.block("B"):
                    vi, vj = T.axis.remap("SS", [i, j])
                    B[vi, vj] = A[vi, vj] * T.float32(2)
            for ax0 in range(128):
                with T.block("C"):
                    vi, vj = T.axis.remap("SS", [i, ax0])
                    C[vi, vj] = B[vi, vj] + T.float32(1)
    """)


def test_compute_at_errors():
    sch = Schedule(TWO_STAGE)
    b_i, b_j = sch.get_loops("B")
    c_i, _ = sch.get_loops("C")
    mod = sch.mod
    with pytest.raises(errors.NotOutputBlockError):
        sch.compute_at(sch.get_block("C"), b_i)
    with pytest.raises(errors.LoopPositionError, match="already under the loop"):
        sch.compute_at(sch.get_block("B"), b_j)
    with pytest.raises(errors.LoopPositionError, match="index 5"):
        sch.compute_at(sch.get_block("B"), c_i, index=5)
    assert sch.mod is mod


def test_compute_at_needs_every_consumer_under_the_loop():
    func = parse("""
    @T.prim_func
    def main(A: T.Buffer((16,), "float32"), C: T.Buffer((16,), "float32"),
             D: T.Buffer((16,), "float32")):
        B = T.alloc_buffer((16,))
        for i in range(16):
            with T.block("B"):
                vi = T.axis.spatial(16, i)
                B[vi] = A[vi]
        for i in range(16):
            with T.block("C"):
                vi = T.axis.spatial(16, i)
                C[vi] = B[vi]
        for i in range(16):
            with T.block("D"):
                vi = T.axis.spatial(16, i)
                D[vi] = B[vi] + C[vi]
    """)
    sch = Schedule(func)
    with pytest.raises(errors.NotAllRequiredBlocksAreVisitedError,
                       match='consumer block "D" is not under the loop'):
        sch.compute_at(sch.get_block("B"), sch.get_loops("C")[0])
    with pytest.raises(errors.NotAllRequiredBlocksAreVisitedError,
                       match='producer block "C" is not under the loop'):
        sch.reverse_compute_at(sch.get_block("D"), sch.get_loops("B")[0])
    with pytest.raises(errors.LoopPositionError,
                       match='block "C", which depends on it, would no longer run after it'):
        sch.reverse_compute_at(sch.get_block("B"), sch.get_loops("D")[0])


def test_compute_at_needs_stage_pipeline():
    func = parse("""
    @T.prim_func
    def main(A: T.Buffer((128,), "float32"), C: T.Buffer((128,), "float32")):
        B = T.alloc_buffer((128,))
        for i in range(64):
            with T.block("B"):
                vi = T.axis.spatial(128, i)
                B[vi] = A[vi]
        for i in range(128):
            with T.block("C"):
                vi = T.axis.spatial(128, i)
                C[vi] = B[vi]
    """)
    sch = Schedule(func)
    with pytest.raises(errors.NotStagePipelineError):
        sch.compute_at(sch.get_block("B"), sch.get_loops("C")[0])


def test_compute_inline():
    sch = Schedule(TWO_STAGE)
    sch.compute_inline(sch.get_block("B"))
    check(sch, TWO_STAGE, """
    @T.prim_func
    def main(A: T.Buffer((128, 128), "float32"), C: T.Buffer((128, 128), "float32")):
        for i, j in T.grid(128, 128):
            with T.block("C"):
                vi, vj = T.axis.remap("SS", [i, j])
                C[vi, vj] = A[vi, vj] * T.float32(2) + T.float32(1)
    """)


def test_reverse_compute_inline():
    sch = Schedule(TWO_STAGE)
    sch.reverse_compute_inline(sch.get_block("C"))
    check(sch, TWO_STAGE, """
    @T.prim_func
    def main(A: T.Buffer((128, 128), "float32"), C: T.Buffer((128, 128), "float32")):
        for i, j in T.grid(128, 128):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                C[vi, vj] = A[vi, vj] * T.float32(2) + T.float32(1)
    """)


def test_inline_errors():
    sch = Schedule(TWO_STAGE)
    with pytest.raises(errors.NotOutputBlockError):
        sch.compute_inline(sch.get_block("C"))
    reduction = parse("""
    @T.prim_func
    def main(A: T.Buffer((16, 16), "float32"), C: T.Buffer((16,), "float32")):
        B = T.alloc_buffer((16,))
        for i, k in T.grid(16, 16):
            with T.block("B"):
                vi, vk = T.axis.remap("SR", [i, k])
                with T.init():
                    B[vi] = T.float32(0)
                B[vi] = B[vi] + A[vi, vk]
        for i in range(16):
            with T.block("C"):
                vi = T.axis.spatial(16, i)
                C[vi] = B[vi] + B[15 - vi]
    """)
    sch = Schedule(reduction)
    with pytest.raises(errors.HasInitBlock):   # TVM checks the init first
        sch.compute_inline(sch.get_block("B"))
    with pytest.raises(errors.NotCompleteBlockError, match="producer"):
        sch.reverse_compute_inline(sch.get_block("C"))
    twice = parse("""
    @T.prim_func
    def main(A: T.Buffer((16,), "float32"), C: T.Buffer((16,), "float32")):
        B = T.alloc_buffer((16,))
        for i in range(16):
            with T.block("B"):
                vi = T.axis.spatial(16, i)
                B[vi] = A[vi]
        for i in range(16):
            with T.block("C"):
                vi = T.axis.spatial(16, i)
                C[vi] = B[vi] + B[15 - vi]
    """)
    sch = Schedule(twice)
    with pytest.raises(errors.BodyAnalysisError, match="reads buffer \"B\" 2 times"):
        sch.reverse_compute_inline(sch.get_block("C"))
    single = parse("""
    @T.prim_func
    def main(A: T.Buffer((16,), "float32")):
        B = T.alloc_buffer((16,))
        for i in range(16):
            with T.block("B"):
                vi = T.axis.spatial(16, i)
                B[vi] = A[vi]
    """)
    sch = Schedule(single)
    with pytest.raises(errors.OnlyLeafError):
        sch.compute_inline(sch.get_block("B"))


def test_compute_at_on_matmul_tiles_numbers_match_unscheduled():
    import numpy as np
    from tirkit.compiler import build
    sch = Schedule(TWO_STAGE)
    i, j = sch.get_loops("C")
    i0, i1 = sch.split(i, [None, 8])
    j0, j1 = sch.split(j, [None, 32])
    sch.reorder(i0, j0, i1, j1)
    sch.compute_at(sch.get_block("B"), j0)
    sch.vectorize(sch.get_loops("C")[-1])
    sch.parallel(i0)
    a = np.random.default_rng(0).random((128, 128), dtype="float32")
    c = np.zeros_like(a)
    build(sch.mod)["main"](a, c)
    np.testing.assert_allclose(c, a * 2 + 1, rtol=1e-6)


def test_compute_at_under_a_non_divisible_split_guards_the_producer():
    import numpy as np
    from tirkit.compiler import build
    func = parse("""
    @T.prim_func
    def main(A: T.Buffer((100,), "float32"), C: T.Buffer((100,), "float32")):
        B = T.alloc_buffer((100,))
        for i in range(100):
            with T.block("B"):
                vi = T.axis.spatial(100, i)
                B[vi] = A[vi] * T.float32(2)
        for i in range(100):
            with T.block("C"):
                vi = T.axis.spatial(100, i)
                C[vi] = B[vi] + T.float32(1)
    """)
    sch = Schedule(func)
    i0, _ = sch.split(sch.get_loops("C")[0], [None, 16])
    sch.compute_at(sch.get_block("B"), i0)
    check(sch, func, """
    @T.prim_func
    def main(A: T.Buffer((100,), "float32"), C: T.Buffer((100,), "float32")):
        B = T.alloc_buffer((100,))
        for i_0 in range(7):
            for ax0 in range(16):
                with T.block("B"):
                    vi = T.axis.spatial(100, i_0 * 16 + ax0)
                    T.where(i_0 * 16 + ax0 < 100)
                    B[vi] = A[vi] * T.float32(2)
            for i_1 in range(16):
                with T.block("C"):
                    vi = T.axis.spatial(100, i_0 * 16 + i_1)
                    T.where(i_0 * 16 + i_1 < 100)
                    C[vi] = B[vi] + T.float32(1)
    """)
    a = np.arange(100, dtype="float32")
    c = np.zeros(100, "float32")
    build(sch.mod)["main"](a, c)
    np.testing.assert_allclose(c, a * 2 + 1)


SHARED_TILE = parse("""
@T.prim_func
def main(A: T.Buffer((64, 64), "float32"), D: T.Buffer((64, 64), "float32")):
    C = T.alloc_buffer((64, 64), scope="shared")
    for i, j in T.grid(64, 64):
        with T.block("C"):
            vi, vj = T.axis.remap("SS", [i, j])
            C[vi, vj] = A[vi, vj] * T.float32(2)
    for i0 in T.thread_binding(4, thread="blockIdx.x"):
        for i1 in T.thread_binding(16, thread="threadIdx.x"):
            for j in range(64):
                with T.block("D"):
                    vi = T.axis.spatial(64, i0 * 16 + i1)
                    vj = T.axis.spatial(64, j)
                    D[vi, vj] = C[vi, vj] + T.float32(1)
""")


def test_compute_at_of_a_shared_buffer_covers_the_threads_of_the_block():
    # a shared buffer is shared by a block's threads, so compute_at relaxes the consumer's
    # region over the threadIdx loops too (not blockIdx): the tile of 16 rows, as TVM does
    # (RelaxBufferRegions<relax_storage_scope=true>); it used to compute the thread's own row
    sch = Schedule(SHARED_TILE)
    sch.compute_at(sch.get_block("C"), sch.get_loops(sch.get_block("D"))[1])
    check(sch, SHARED_TILE, """
    @T.prim_func
    def main(A: T.Buffer((64, 64), "float32"), D: T.Buffer((64, 64), "float32")):
        C = T.alloc_buffer((64, 64), scope="shared")
        for i0 in T.thread_binding(4, thread="blockIdx.x"):
            for i1 in T.thread_binding(16, thread="threadIdx.x"):
                for ax0, ax1 in T.grid(16, 64):
                    with T.block("C"):
                        vi = T.axis.spatial(64, i0 * 16 + ax0)
                        vj = T.axis.spatial(64, ax1)
                        T.reads(A[vi, vj])
                        T.writes(C[vi, vj])
                        C[vi, vj] = A[vi, vj] * T.float32(2.0)
                for j in range(64):
                    with T.block("D"):
                        vi = T.axis.spatial(64, i0 * 16 + i1)
                        vj = T.axis.spatial(64, j)
                        T.reads(C[vi, vj])
                        T.writes(D[vi, vj])
                        D[vi, vj] = C[vi, vj] + T.float32(1.0)
    """)
    # under j as well: the column j of the 16 rows
    sch = Schedule(SHARED_TILE)
    sch.compute_at(sch.get_block("C"), sch.get_loops(sch.get_block("D"))[2])
    check(sch, SHARED_TILE, """
    @T.prim_func
    def main(A: T.Buffer((64, 64), "float32"), D: T.Buffer((64, 64), "float32")):
        C = T.alloc_buffer((64, 64), scope="shared")
        for i0 in T.thread_binding(4, thread="blockIdx.x"):
            for i1 in T.thread_binding(16, thread="threadIdx.x"):
                for j in range(64):
                    for ax0 in range(16):
                        with T.block("C"):
                            vi = T.axis.spatial(64, i0 * 16 + ax0)
                            vj = T.axis.spatial(64, j)
                            T.reads(A[vi, vj])
                            T.writes(C[vi, vj])
                            C[vi, vj] = A[vi, vj] * T.float32(2.0)
                    with T.block("D"):
                        vi = T.axis.spatial(64, i0 * 16 + i1)
                        vj = T.axis.spatial(64, j)
                        T.reads(C[vi, vj])
                        T.writes(D[vi, vj])
                        D[vi, vj] = C[vi, vj] + T.float32(1.0)
    """)
