"""decompose_reduction, rfactor, loop_partition, reorder_block_iter_var and the sampling
primitives: before/after, error cases, determinism per seed, trace round trip."""
import numpy as np
import pytest

from tirkit.schedule import Schedule, errors
from tirkit.schedule.testing import verify_trace_roundtrip

from sched_util import check, parse  # tests/schedule is on sys.path (rootdir-less test dir)

ROWSUM = parse("""
@T.prim_func
def main(A: T.Buffer((16, 32), "float32"), B: T.Buffer((16,), "float32")):
    for i, k in T.grid(16, 32):
        with T.block("B"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                B[vi] = T.float32(0)
            B[vi] = B[vi] + A[vi, vk]
""")


def test_decompose_reduction():
    sch = Schedule(ROWSUM)
    i, k = sch.get_loops("B")
    init = sch.decompose_reduction(sch.get_block("B"), k)
    assert sch.get(init).name_hint == "B_init"
    check(sch, ROWSUM, """
    @T.prim_func
    def main(A: T.Buffer((16, 32), "float32"), B: T.Buffer((16,), "float32")):
        for i in range(16):
            with T.block("B_init"):
                vi = T.axis.spatial(16, i)
                B[vi] = T.float32(0)
            for k in range(32):
                with T.block("B_update"):
                    vi, vk = T.axis.remap("SR", [i, k])
                    B[vi] = B[vi] + A[vi, vk]
    """)


def test_decompose_reduction_at_outer_loop_copies_spatial_loops():
    sch = Schedule(ROWSUM)
    i, _ = sch.get_loops("B")
    sch.decompose_reduction(sch.get_block("B"), i)
    check(sch, ROWSUM, """
    @T.prim_func
    def main(A: T.Buffer((16, 32), "float32"), B: T.Buffer((16,), "float32")):
        for i_init in range(16):
            with T.block("B_init"):
                vi = T.axis.spatial(16, i_init)
                B[vi] = T.float32(0)
        for i, k in T.grid(16, 32):
            with T.block("B_update"):
                vi, vk = T.axis.remap("SR", [i, k])
                B[vi] = B[vi] + A[vi, vk]
    """)


def test_decompose_reduction_errors():
    sch = Schedule(ROWSUM)
    b = sch.get_block("B")
    _, k = sch.get_loops(b)
    sch.decompose_reduction(b, k)
    with pytest.raises(errors.NotReductionBlockError, match="no init"):
        sch.decompose_reduction(sch.get_block("B_update"), k)
    other = parse("""
    @T.prim_func
    def main(A: T.Buffer((16, 32), "float32"), B: T.Buffer((16,), "float32"),
             C: T.Buffer((16,), "float32")):
        for i, k in T.grid(16, 32):
            with T.block("B"):
                vi, vk = T.axis.remap("SR", [i, k])
                with T.init():
                    B[vi] = T.float32(0)
                B[vi] = B[vi] + A[vi, vk]
        for i in range(16):
            with T.block("C"):
                vi = T.axis.spatial(16, i)
                C[vi] = B[vi]
    """)
    sch = Schedule(other)
    with pytest.raises(errors.LoopPositionDecomposeError, match="not an ancestor"):
        sch.decompose_reduction(sch.get_block("B"), sch.get_loops("C")[0])


def test_decompose_reduction_under_a_reduction_loop_is_refused():
    # found by test_schedule_differential: split k, fuse i with k0, decompose at k1 -- the init
    # would run once per k0 and keep only the last chunk's sum (TVM raises LoopHeightError)
    sch = Schedule(ROWSUM)
    b = sch.get_block("B")
    i, k = sch.get_loops(b)
    k0, k1 = sch.split(k, [None, 8])
    sch.fuse(i, k0)
    before = sch.mod
    with pytest.raises(errors.LoopHeightError, match="'i_k_0_fused' above it feeds a reduction"):
        sch.decompose_reduction(b, k1)
    assert sch.mod is before


def test_rfactor():
    sch = Schedule(ROWSUM)
    _, k = sch.get_loops("B")
    rf = sch.rfactor(k, 0)
    assert sch.get(rf).name_hint == "B_rf"
    check(sch, ROWSUM, """
    @T.prim_func
    def main(A: T.Buffer((16, 32), "float32"), B: T.Buffer((16,), "float32")):
        B_rf = T.alloc_buffer((32, 16))
        for i, k in T.grid(16, 32):
            with T.block("B_rf"):
                vk, vi = T.axis.remap("SS", [k, i])
                B_rf[vk, vi] = A[vi, vk]
        for i, k in T.grid(16, 32):
            with T.block("B"):
                vk, vi = T.axis.remap("RS", [k, i])
                with T.init():
                    B[vi] = T.float32(0)
                B[vi] = B[vi] + B_rf[vk, vi]
    """)


def test_rfactor_of_a_non_divisible_split_keeps_the_predicate():
    # TVM 0.27's IR: the rf block keeps the block's predicate (it used to be dropped, and the
    # rf block summed A[vi, 60:64], i.e. the next row's first four elements), and the
    # write-back block's first iter var is the rfactor one
    before = parse("""
    @T.prim_func
    def main(A: T.Buffer((8, 60), "float32"), D: T.Buffer((8,), "float32")):
        for i, k in T.grid(8, 60):
            with T.block("D"):
                vi, vk = T.axis.remap("SR", [i, k])
                with T.init():
                    D[vi] = T.float32(0)
                D[vi] = D[vi] + A[vi, vk]
    """)
    sch = Schedule(before)
    _, k1 = sch.split(sch.get_loops("D")[1], [None, 16])
    sch.rfactor(k1, 1)
    check(sch, before, """
    @T.prim_func
    def main(A: T.Buffer((8, 60), "float32"), D: T.Buffer((8,), "float32")):
        D_rf = T.alloc_buffer((8, 16))
        for i, k_0, k_1 in T.grid(8, 4, 16):
            with T.block("D_rf"):
                vk_1, vi, vk_0 = T.axis.remap("SSR", [k_1, i, k_0])
                T.where(k_0 * 16 + k_1 < 60)
                T.reads(A[vi, vk_0 * 16 + vk_1])
                T.writes(D_rf[vi, vk_1])
                with T.init():
                    D_rf[vi, vk_1] = T.float32(0.0)
                D_rf[vi, vk_1] = D_rf[vi, vk_1] + A[vi, vk_0 * 16 + vk_1]
        for i, k_1 in T.grid(8, 16):
            with T.block("D"):
                vk_1, vi = T.axis.remap("RS", [k_1, i])
                T.reads(D_rf[vi, vk_1])
                T.writes(D[vi])
                with T.init():
                    D[vi] = T.float32(0.0)
                D[vi] = D[vi] + D_rf[vi, vk_1]
    """)
    from tirkit.compiler import build
    a = np.random.default_rng(2).random((8, 60), dtype="float32")
    d = np.full(8, np.nan, "float32")
    build(sch.mod)["main"](a, d)
    np.testing.assert_allclose(d, a.sum(axis=1), rtol=1e-5)


def test_rfactor_numbers_match_and_vectorize():
    from tirkit.compiler import build
    sch = Schedule(ROWSUM)
    _, k = sch.get_loops("B")
    _, k1 = sch.split(k, [None, 8])
    rf = sch.rfactor(k1, 1)
    sch.vectorize(sch.get_loops(rf)[-1])
    sch.parallel(sch.get_loops(rf)[0])
    verify_trace_roundtrip(sch, ROWSUM)
    a = np.random.default_rng(1).random((16, 32), dtype="float32")
    b = np.zeros(16, "float32")
    build(sch.mod)["main"](a, b)
    np.testing.assert_allclose(b, a.sum(axis=1), rtol=1e-5)


def test_rfactor_errors():
    sch = Schedule(ROWSUM)
    i, k = sch.get_loops("B")
    with pytest.raises(errors.LoopPropertyError, match="not a reduction loop"):
        sch.rfactor(i, 0)
    with pytest.raises(errors.FactorAxisOutOfRangeError):
        sch.rfactor(k, 3)
    prod = parse("""
    @T.prim_func
    def main(A: T.Buffer((16, 32), "float32"), B: T.Buffer((16,), "float32")):
        for i, k in T.grid(16, 32):
            with T.block("B"):
                vi, vk = T.axis.remap("SR", [i, k])
                with T.init():
                    B[vi] = T.float32(0)
                B[vi] = B[vi] - A[vi, vk]
    """)
    sch = Schedule(prod)
    with pytest.raises(errors.ReducerNotFoundError):
        sch.rfactor(sch.get_loops("B")[1], 0)


def test_rfactor_of_a_nest_shared_with_a_consumer_is_refused():
    # the consumer was computed at the reduction's outer loop: rfactor would rebuild the nest
    # and put the write-back after that loop, so C read B before it was reduced (a wrong kernel;
    # TVM 0.27 fails with an InternalError in BlockReplacer)
    func = parse("""
    @T.prim_func
    def main(A: T.Buffer((16, 64), "float32"), C: T.Buffer((16,), "float32")):
        B = T.alloc_buffer((16,))
        for i, k in T.grid(16, 64):
            with T.block("B"):
                vi, vk = T.axis.remap("SR", [i, k])
                with T.init():
                    B[vi] = T.float32(0)
                B[vi] = B[vi] + A[vi, vk]
        for i in range(16):
            with T.block("C"):
                vi = T.axis.remap("S", [i])
                C[vi] = B[vi] * T.float32(2)
    """)
    sch = Schedule(func)
    i, k = sch.get_loops("B")
    sch.reverse_compute_at(sch.get_block("C"), i)
    _, k1 = sch.split(k, [None, 8])
    before = sch.mod
    with pytest.raises(errors.NotSingleChildBlockError,
                       match='loop "i", the outermost loop of block "B", holds other blocks'):
        sch.rfactor(k1, 0)
    assert sch.mod is before


def test_loop_partition_wrappers_declare_what_their_blocks_access():
    # found by a bound-checked schedule fuzzer (stop 25): softmax's loop_partition of maxelem's
    # row loop, then cache_read(expsum, 1) put the maxelem copy before maxelem_i_common (NaN);
    # end-to-end numbers in test_loop_partition_regions.py
    sch = Schedule(ROWSUM)
    i, _ = sch.get_loops("B")
    sch.loop_partition(i, [4, None])
    for name in ("B_i_common", "B_i0_partition", "B_i1_partition"):
        block = sch.get(sch.get_block(name))
        assert [r.buffer.name for r in block.writes] == ["B"], name
        assert [r.buffer.name for r in block.reads] == ["A"], name
    text = sch.mod.script()
    assert "T.reads(A[0:16, 0:32])" in text and "T.writes(B[0:16])" in text  # B_i_common
    assert "T.reads(A[0:4, 0:32])" in text and "T.writes(B[4:16])" in text  # the partitions
    verify_trace_roundtrip(sch, ROWSUM)


def test_loop_partition_and_reorder_block_iter_var():
    sch = Schedule(ROWSUM)
    i, _ = sch.get_loops("B")
    parts = sch.loop_partition(i, [4, None])
    assert [sch.get(p).min.value for p in parts] == [0, 4]
    assert [sch.get(p).extent.value for p in parts] == [4, 12]
    text = sch.mod.script()
    assert 'T.block("B_i_common")' in text and 'T.block("B_i1")' in text
    verify_trace_roundtrip(sch, ROWSUM)
    sch = Schedule(ROWSUM)
    sch.reorder_block_iter_var(sch.get_block("B"), [1, 0])
    check(sch, ROWSUM, """
    @T.prim_func
    def main(A: T.Buffer((16, 32), "float32"), B: T.Buffer((16,), "float32")):
        for i, k in T.grid(16, 32):
            with T.block("B"):
                vk, vi = T.axis.remap("RS", [k, i])
                with T.init():
                    B[vi] = T.float32(0)
                B[vi] = B[vi] + A[vi, vk]
    """)
    with pytest.raises(errors.InvalidArgumentError, match="not a permutation"):
        sch.reorder_block_iter_var(sch.get_block("B"), [0, 0])
    with pytest.raises(errors.WrongFactorError):
        sch.loop_partition(sch.get_loops("B")[0], [2, 3])


def _draws(seed):
    sch = Schedule(ROWSUM, seed=seed)
    i, k = sch.get_loops("B")
    tiles = sch.sample_perfect_tile(k, n=3, max_innermost_factor=4)
    cat = sch.sample_categorical([1, 2, 4, 8], [0.1, 0.2, 0.3, 0.4])
    loc = sch.sample_compute_location(sch.get_block("B"))
    return sch, [sch.get(t) for t in tiles], sch.get(cat), tiles


def test_sampling_is_deterministic_per_seed_and_replays():
    runs = [_draws(seed)[1:3] for seed in (5, 5, 6, 7, 8)]
    assert runs[0] == runs[1]
    for tiles, cat in runs:
        assert tiles[0] * tiles[1] * tiles[2] == 32 and tiles[2] <= 4
        assert cat in (1, 2, 4, 8)
    assert len({(tuple(t), c) for t, c in runs}) > 1
    sch, _, _, tiles = _draws(5)
    sch.split(sch.get_loops("B")[1], tiles)
    verify_trace_roundtrip(sch, ROWSUM)


def test_sampling_decisions_and_errors():
    sch = Schedule(ROWSUM, seed=1)
    _, k = sch.get_loops("B")
    assert [sch.get(v) for v in sch.sample_perfect_tile(k, 2, decision=[4, 8])] == [4, 8]
    assert sch.get(sch.sample_categorical([3, 5], [1, 1], decision=1)) == 5
    with pytest.raises(errors.InvalidArgumentError):
        sch.sample_perfect_tile(k, 2, decision=[3, 8])
    with pytest.raises(errors.InvalidArgumentError):
        sch.sample_categorical([1, 2], [1.0])
    data = sch.trace.as_json()
    assert data[1] == [[2, [4, 8]], [3, 1]]


@pytest.mark.parametrize("kwargs", [dict(n=2.0), dict(n=True), dict(n="2"),
                                    dict(n=2, max_innermost_factor=4.5), dict(n=0),
                                    dict(n=65), dict(n=10**30)])
def test_sample_perfect_tile_refuses_a_non_integer_n(kwargs):
    """n=2.0 escaped as a bare TypeError from range(); n=True was taken as 1; n=10**30 ran a loop
    of 10**30 steps (probe of wrong argument kinds). All are InvalidArgumentError naming the
    loop, trace unchanged."""
    sch = Schedule(ROWSUM, seed=1)
    _, k = sch.get_loops("B")
    n = len(sch.trace.insts)
    with pytest.raises(errors.InvalidArgumentError,
                       match='loop "k".*(must be an integer|n <= 64)'):
        sch.sample_perfect_tile(k, **kwargs)
    assert len(sch.trace.insts) == n
    assert len(sch.sample_perfect_tile(k, n=np.int64(2))) == 2  # NumPy ints are integers


BIG_LOOP = parse("""
@T.prim_func
def main(A: T.Buffer((2147483647,), "int8")):
    for i in range(2147483647):
        with T.block("A"):
            vi = T.axis.spatial(2147483647, i)
            A[vi] = T.int8(0)
""")


def test_sample_perfect_tile_of_a_prime_extent_of_2_31_finishes():
    """The divisors were found by scanning range(1, extent + 1): a loop of extent 2**31 - 1
    (a prime) hung the draw. Now O(sqrt(extent)): the only factorizations are 1 and itself."""
    sch = Schedule(BIG_LOOP, seed=3)
    (i,) = sch.get_loops("A")
    tiles = [sch.get(v) for v in sch.sample_perfect_tile(i, n=3, max_innermost_factor=0)]
    assert sorted(tiles) == [1, 1, 2147483647]


SCALE_THEN_SUM_IKJ = parse("""
@T.prim_func
def main(A: T.Buffer((8, 4, 6), "float32"), C: T.Buffer((8, 6), "float32")):
    B = T.alloc_buffer((8, 4, 6))
    for i, k, j in T.grid(8, 4, 6):
        with T.block("B"):
            vi, vk, vj = T.axis.remap("SSS", [i, k, j])
            B[vi, vk, vj] = A[vi, vk, vj] * T.float32(2)
    for i, u, k, j in T.grid(8, 1, 4, 6):
        with T.block("C"):
            vi, vu, vk, vj = T.axis.remap("SSRS", [i, u, k, j])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + B[vi, vk, vj]
""")


def test_sample_compute_location_candidates_follow_tvm():
    """TVM's CollectComputeLocation: unit loops are skipped and a data-parallel loop after a
    reduction loop ends the candidates — here i and k of the consumer, not u nor j."""
    drawn = set()
    for decision in (-1, 0, 1):
        sch = Schedule(SCALE_THEN_SUM_IKJ)
        loc = sch.sample_compute_location(sch.get_block("B"), decision=decision)
        drawn.add(None if loc is None else sch.get(loc).loop_var.name_hint)
        if loc is not None:
            sch.compute_at(sch.get_block("B"), loc)
            verify_trace_roundtrip(sch, SCALE_THEN_SUM_IKJ)
    assert drawn == {None, "i", "k"}
    with pytest.raises(errors.InvalidArgumentError, match="out of range"):
        sch = Schedule(SCALE_THEN_SUM_IKJ)
        sch.sample_compute_location(sch.get_block("B"), decision=2)


MATMUL_20 = parse("""
@T.prim_func
def main(A: T.Buffer((20, 20), "float32"), B: T.Buffer((20, 20), "float32"),
         C: T.Buffer((20, 20), "float32")):
    for i, j, k in T.grid(20, 20, 20):
        with T.block("C"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
""")


def _fused_jk_split(factor):
    sch = Schedule(MATMUL_20)
    i, j, k = sch.get_loops("C")
    f0, f1 = sch.split(sch.fuse(j, k), [None, factor])
    return sch, i, f0, f1


def _run_matmul_20(mod):
    from tirkit.compiler import build
    rng = np.random.default_rng(0)
    a, b = rng.random((20, 20), dtype="float32"), rng.random((20, 20), dtype="float32")
    c = np.zeros((20, 20), "float32")
    build(mod)(a, b, c)
    np.testing.assert_allclose(c, a @ b, rtol=1e-4)


@pytest.mark.parametrize("factor,order", [(3, "i f1 f0"), (8, "i f1 f0"), (3, "f1 i f0"),
                                          (3, "f1 i")])
def test_reorder_refuses_to_run_the_init_after_reduction_steps_of_its_output(factor, order):
    # SCHED_FUZZ find: fuse j with k, split the fused loop by 3, swap the two halves; the init
    # of C[vi, vj] (vk == 0) would run after other k of the same vj were added (260 of 400
    # outputs wrong). TVM 0.27 accepts the reorder and builds that kernel; tirkit refuses it.
    from tirkit.schedule.primitives.reorder import ReductionInitOrderError
    sch, i, f0, f1 = _fused_jk_split(factor)
    before = sch.mod.script()
    loops = {"i": i, "f0": f0, "f1": f1}
    with pytest.raises(ReductionInitOrderError,
                       match='loop "j_k_fused_1" would run outside loop "j_k_fused_0".*block '
                             '"C".*spatial var "vj" and reduction var "vk".*vk == 0') as info:
        sch.reorder(*[loops[n] for n in order.split()])
    assert [err_loc.name_hint if hasattr(err_loc, "iter_vars") else err_loc.loop_var.name_hint
            for err_loc in info.value.locations] == ["C", "j_k_fused_1", "j_k_fused_0"]
    assert sch.mod.script() == before  # refused: the schedule is unchanged
    assert "Reorder" not in [inst.kind.name for inst in sch.trace.insts]


@pytest.mark.parametrize("factor,order", [(4, "i f1 f0"), (10, "f1 i f0"), (3, "f0 i f1")])
def test_reorder_of_a_fused_spatial_and_reduction_loop_that_keeps_the_init_first(factor, order):
    # split by a factor of the reduction extent (4, 10): every loop value is a sum of digits each
    # owned by vj or vk, so any order runs vk == 0 first for each vj; split by 3 but f0 kept
    # outside f1: the fused value still grows in execution order for each vj
    sch, i, f0, f1 = _fused_jk_split(factor)
    loops = {"i": i, "f0": f0, "f1": f1}
    sch.reorder(*[loops[n] for n in order.split()])
    assert [sch.get(lp).loop_var.name_hint for lp in sch.get_loops("C")] == [
        {"i": "i", "f0": "j_k_fused_0", "f1": "j_k_fused_1"}[n] for n in order.split()]
    verify_trace_roundtrip(sch, MATMUL_20)
    _run_matmul_20(sch.mod)
