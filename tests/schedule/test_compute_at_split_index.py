"""compute_at / reverse_compute_at of a block whose accesses are fused from several iter vars
(``C[vi, vk0 * 16 + vk1]``, ``C[vf // 64, vf % 64]``): the iter vars' domains come from the
inverse of the access map, as TVM's ``CalculateBlockVarDomain`` computes them
(``UpdateBlockVarDomainAffine``, then ``UpdateBlockVarDomainDimwise``). tirkit used to accept
only a plain iter var (or one plus a constant) per dimension and refused these with
NotCompactDataFlowError, which blocked folding softmax's exp-sum into the exp loop.

The expected IR is what TVM 0.27 prints for the same schedule, except where TVM's result is
wrong (noted per test): TVM pulls the required box back through its two corners, which skips
iterations when the box wraps an inner index."""
import numpy as np
import pytest

from tirkit.compiler import build
from tirkit.schedule import Schedule, errors

from sched_util import check, parse  # tests/schedule is on sys.path (rootdir-less test dir)


def _run(func, shapes, seed=0):
    """Build ``func`` and run it on random inputs; the last argument (NaN-filled) is returned."""
    rng = np.random.default_rng(seed)
    args = [rng.uniform(-1, 1, s).astype("float32") for s in shapes]
    args[-1][:] = np.nan
    build(func)["main"](*args)
    return args[-1]


def _same_numbers(before, sch, shapes):
    np.testing.assert_allclose(_run(sch.mod, shapes), _run(before, shapes), rtol=1e-5)


# the producer runs over a split loop, the consumer reduces it through vk0 * 16 + vk1
SPLIT_READ = parse("""
@T.prim_func
def main(A: T.Buffer((4, 64), "float32"), D: T.Buffer((4,), "float32")):
    C = T.alloc_buffer((4, 64))
    for i, j0, j1 in T.grid(4, 4, 16):
        with T.block("C"):
            vi = T.axis.spatial(4, i)
            vj = T.axis.spatial(64, j0 * 16 + j1)
            C[vi, vj] = A[vi, vj] * T.float32(2)
    for i, k0, k1 in T.grid(4, 4, 16):
        with T.block("D"):
            vi, vk0, vk1 = T.axis.remap("SRR", [i, k0, k1])
            with T.init():
                D[vi] = T.float32(0)
            D[vi] = D[vi] + C[vi, vk0 * 16 + vk1]
""")


def test_reverse_compute_at_of_a_reduction_over_a_split_index():
    sch = Schedule(SPLIT_READ)
    sch.reverse_compute_at(sch.get_block("D"), sch.get_loops(sch.get_block("C"))[1])
    check(sch, SPLIT_READ, """
    @T.prim_func
    def main(A: T.Buffer((4, 64), "float32"), D: T.Buffer((4,), "float32")):
        C = T.alloc_buffer((4, 64))
        for i, j0 in T.grid(4, 4):
            for j1 in range(16):
                with T.block("C"):
                    vi = T.axis.spatial(4, i)
                    vj = T.axis.spatial(64, j0 * 16 + j1)
                    T.reads(A[vi, vj])
                    T.writes(C[vi, vj])
                    C[vi, vj] = A[vi, vj] * T.float32(2.0)
            for ax0 in range(16):
                with T.block("D"):
                    vi, vk0, vk1 = T.axis.remap("SRR", [i, j0, ax0])
                    T.reads(C[vi, vk0 * 16 + vk1])
                    T.writes(D[vi])
                    with T.init():
                        D[vi] = T.float32(0.0)
                    D[vi] = D[vi] + C[vi, vk0 * 16 + vk1]
    """)
    _same_numbers(SPLIT_READ, sch, [(4, 64), (4,)])


RF_PARTIALS = parse("""
@T.prim_func
def main(A: T.Buffer((4, 64), "float32"), D: T.Buffer((4, 16), "float32")):
    C = T.alloc_buffer((4, 64))
    for i, j0, j1 in T.grid(4, 4, 16):
        with T.block("C"):
            vi = T.axis.spatial(4, i)
            vj = T.axis.spatial(64, j0 * 16 + j1)
            C[vi, vj] = A[vi, vj] * T.float32(2)
    for i, k0, k1 in T.grid(4, 4, 16):
        with T.block("D"):
            vk1, vi, vk0 = T.axis.remap("SSR", [k1, i, k0])
            with T.init():
                D[vi, vk1] = T.float32(0)
            D[vi, vk1] = D[vi, vk1] + C[vi, vk0 * 16 + vk1]
""")


def test_reverse_compute_at_folds_rfactor_partials_into_the_producer_loop():
    # softmax's exp-sum after rfactor: 16 lane sums of the exp row, read as vk0 * 16 + vk1
    sch = Schedule(RF_PARTIALS)
    sch.reverse_compute_at(sch.get_block("D"), sch.get_loops(sch.get_block("C"))[1])
    check(sch, RF_PARTIALS, """
    @T.prim_func
    def main(A: T.Buffer((4, 64), "float32"), D: T.Buffer((4, 16), "float32")):
        C = T.alloc_buffer((4, 64))
        for i, j0 in T.grid(4, 4):
            for j1 in range(16):
                with T.block("C"):
                    vi = T.axis.spatial(4, i)
                    vj = T.axis.spatial(64, j0 * 16 + j1)
                    T.reads(A[vi, vj])
                    T.writes(C[vi, vj])
                    C[vi, vj] = A[vi, vj] * T.float32(2.0)
            for ax0 in range(16):
                with T.block("D"):
                    vk1, vi, vk0 = T.axis.remap("SSR", [ax0, i, j0])
                    T.reads(C[vi, vk0 * 16 + vk1])
                    T.writes(D[vi, vk1])
                    with T.init():
                        D[vi, vk1] = T.float32(0.0)
                    D[vi, vk1] = D[vi, vk1] + C[vi, vk0 * 16 + vk1]
    """)
    _same_numbers(RF_PARTIALS, sch, [(4, 64), (4, 16)])


def test_compute_at_of_a_producer_writing_a_split_index():
    before = parse("""
    @T.prim_func
    def main(A: T.Buffer((4, 64), "float32"), D: T.Buffer((4, 64), "float32")):
        C = T.alloc_buffer((4, 64))
        for i, j0, j1 in T.grid(4, 4, 16):
            with T.block("C"):
                vi, vj0, vj1 = T.axis.remap("SSS", [i, j0, j1])
                C[vi, vj0 * 16 + vj1] = A[vi, vj0 * 16 + vj1] * T.float32(2)
        for i, j in T.grid(4, 64):
            with T.block("D"):
                vi, vj = T.axis.remap("SS", [i, j])
                D[vi, vj] = C[vi, vj] + T.float32(1)
    """)
    sch = Schedule(before)
    sch.compute_at(sch.get_block("C"), sch.get_loops(sch.get_block("D"))[1])
    check(sch, before, """
    @T.prim_func
    def main(A: T.Buffer((4, 64), "float32"), D: T.Buffer((4, 64), "float32")):
        C = T.alloc_buffer((4, 64))
        for i, j in T.grid(4, 64):
            with T.block("C"):
                vi = T.axis.spatial(4, i)
                vj0 = T.axis.spatial(4, j // 16)
                vj1 = T.axis.spatial(16, j % 16)
                T.reads(A[vi, vj0 * 16 + vj1])
                T.writes(C[vi, vj0 * 16 + vj1])
                C[vi, vj0 * 16 + vj1] = A[vi, vj0 * 16 + vj1] * T.float32(2.0)
            with T.block("D"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(C[vi, vj])
                T.writes(D[vi, vj])
                D[vi, vj] = C[vi, vj] + T.float32(1.0)
    """)
    _same_numbers(before, sch, [(4, 64), (4, 64)])


def test_reverse_compute_at_half_rows_of_a_fused_index():
    # the producer makes 8 elements per j1; the consumer's vk1 covers half of its 16
    before = parse("""
    @T.prim_func
    def main(A: T.Buffer((4, 64), "float32"), D: T.Buffer((4,), "float32")):
        C = T.alloc_buffer((4, 64))
        for i, j0, j1, j2 in T.grid(4, 2, 4, 8):
            with T.block("C"):
                vi = T.axis.spatial(4, i)
                vj = T.axis.spatial(64, j0 * 32 + j1 * 8 + j2)
                C[vi, vj] = A[vi, vj] * T.float32(2)
        for i, k0, k1 in T.grid(4, 4, 16):
            with T.block("D"):
                vi, vk0, vk1 = T.axis.remap("SRR", [i, k0, k1])
                with T.init():
                    D[vi] = T.float32(0)
                D[vi] = D[vi] + C[vi, vk0 * 16 + vk1]
    """)
    sch = Schedule(before)
    sch.reverse_compute_at(sch.get_block("D"), sch.get_loops(sch.get_block("C"))[2])
    check(sch, before, """
    @T.prim_func
    def main(A: T.Buffer((4, 64), "float32"), D: T.Buffer((4,), "float32")):
        C = T.alloc_buffer((4, 64))
        for i, j0, j1 in T.grid(4, 2, 4):
            for j2 in range(8):
                with T.block("C"):
                    vi = T.axis.spatial(4, i)
                    vj = T.axis.spatial(64, j0 * 32 + j1 * 8 + j2)
                    T.reads(A[vi, vj])
                    T.writes(C[vi, vj])
                    C[vi, vj] = A[vi, vj] * T.float32(2.0)
            for ax0 in range(8):
                with T.block("D"):
                    vi = T.axis.spatial(4, i)
                    vk0 = T.axis.reduce(4, j0 * 2 + j1 // 2)
                    vk1 = T.axis.reduce(16, j1 % 2 * 8 + ax0)
                    T.reads(C[vi, vk0 * 16 + vk1])
                    T.writes(D[vi])
                    with T.init():
                        D[vi] = T.float32(0.0)
                    D[vi] = D[vi] + C[vi, vk0 * 16 + vk1]
    """)
    _same_numbers(before, sch, [(4, 64), (4,)])


def test_reverse_compute_at_under_a_non_divisible_split_guards_the_consumer():
    # 5 x 2 consumer under a 3 x 4 producer of 10: the last j0 has one (vk0) pair to skip
    before = parse("""
    @T.prim_func
    def main(A: T.Buffer((4, 10), "float32"), D: T.Buffer((4,), "float32")):
        C = T.alloc_buffer((4, 10))
        for i, j0, j1 in T.grid(4, 3, 4):
            with T.block("C"):
                T.where(j0 * 4 + j1 < 10)
                vi = T.axis.spatial(4, i)
                vj = T.axis.spatial(10, j0 * 4 + j1)
                C[vi, vj] = A[vi, vj] * T.float32(2)
        for i, k0, k1 in T.grid(4, 5, 2):
            with T.block("D"):
                vi, vk0, vk1 = T.axis.remap("SRR", [i, k0, k1])
                with T.init():
                    D[vi] = T.float32(0)
                D[vi] = D[vi] + C[vi, vk0 * 2 + vk1]
    """)
    sch = Schedule(before)
    sch.reverse_compute_at(sch.get_block("D"), sch.get_loops(sch.get_block("C"))[1])
    check(sch, before, """
    @T.prim_func
    def main(A: T.Buffer((4, 10), "float32"), D: T.Buffer((4,), "float32")):
        C = T.alloc_buffer((4, 10))
        for i, j0 in T.grid(4, 3):
            for j1 in range(4):
                with T.block("C"):
                    vi = T.axis.spatial(4, i)
                    vj = T.axis.spatial(10, j0 * 4 + j1)
                    T.where(j0 * 4 + j1 < 10)
                    T.reads(A[vi, vj])
                    T.writes(C[vi, vj])
                    C[vi, vj] = A[vi, vj] * T.float32(2.0)
            for ax0, ax1 in T.grid(2, 2):
                with T.block("D"):
                    vi = T.axis.spatial(4, i)
                    vk0 = T.axis.reduce(5, j0 * 2 + ax0)
                    vk1 = T.axis.reduce(2, ax1)
                    T.where(j0 * 2 + ax0 < 5)
                    T.reads(C[vi, vk0 * 2 + vk1])
                    T.writes(D[vi])
                    with T.init():
                        D[vi] = T.float32(0.0)
                    D[vi] = D[vi] + C[vi, vk0 * 2 + vk1]
    """)
    _same_numbers(before, sch, [(4, 10), (4,)])


def test_reverse_compute_at_of_a_flat_consumer_reading_div_mod():
    before = parse("""
    @T.prim_func
    def main(A: T.Buffer((4, 64), "float32"), D: T.Buffer((256,), "float32")):
        C = T.alloc_buffer((4, 64))
        for i, j in T.grid(4, 64):
            with T.block("C"):
                vi, vj = T.axis.remap("SS", [i, j])
                C[vi, vj] = A[vi, vj] * T.float32(2)
        for f in range(256):
            with T.block("D"):
                vf = T.axis.remap("S", [f])
                D[vf] = C[vf // 64, vf % 64] + T.float32(1)
    """)
    sch = Schedule(before)
    sch.reverse_compute_at(sch.get_block("D"), sch.get_loops(sch.get_block("C"))[0])
    check(sch, before, """
    @T.prim_func
    def main(A: T.Buffer((4, 64), "float32"), D: T.Buffer((256,), "float32")):
        C = T.alloc_buffer((4, 64))
        for i in range(4):
            for j in range(64):
                with T.block("C"):
                    vi, vj = T.axis.remap("SS", [i, j])
                    T.reads(A[vi, vj])
                    T.writes(C[vi, vj])
                    C[vi, vj] = A[vi, vj] * T.float32(2.0)
            for ax0 in range(64):
                with T.block("D"):
                    vf = T.axis.spatial(256, i * 64 + ax0)
                    T.reads(C[vf // 64, vf % 64])
                    T.writes(D[vf])
                    D[vf] = C[vf // 64, vf % 64] + T.float32(1.0)
    """)
    _same_numbers(before, sch, [(4, 64), (256,)])


def test_reverse_compute_at_with_an_offset_keeps_every_consumer_instance():
    # TVM 0.27 bounds vj1 by the inverse of the buffer's two corners, [14, 15], and guards
    # the consumer with `14 <= (j + 14) % 16`: 224 of the 256 outputs are never written.
    # Here only the real bound (vj0 >= 0, i.e. j >= 2) guards it.
    before = parse("""
    @T.prim_func
    def main(A: T.Buffer((4, 66), "float32"), D: T.Buffer((4, 64), "float32")):
        C = T.alloc_buffer((4, 66))
        for i, j in T.grid(4, 66):
            with T.block("C"):
                vi, vj = T.axis.remap("SS", [i, j])
                C[vi, vj] = A[vi, vj] * T.float32(2)
        for i, j0, j1 in T.grid(4, 4, 16):
            with T.block("D"):
                vi, vj0, vj1 = T.axis.remap("SSS", [i, j0, j1])
                D[vi, vj0 * 16 + vj1] = C[vi, vj0 * 16 + vj1 + 2] + T.float32(1)
    """)
    sch = Schedule(before)
    sch.reverse_compute_at(sch.get_block("D"), sch.get_loops(sch.get_block("C"))[1])
    check(sch, before, """
    @T.prim_func
    def main(A: T.Buffer((4, 66), "float32"), D: T.Buffer((4, 64), "float32")):
        C = T.alloc_buffer((4, 66))
        for i, j in T.grid(4, 66):
            with T.block("C"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(A[vi, vj])
                T.writes(C[vi, vj])
                C[vi, vj] = A[vi, vj] * T.float32(2.0)
            with T.block("D"):
                vi = T.axis.spatial(4, i)
                vj0 = T.axis.spatial(4, (j + 14) // 16 - 1)
                vj1 = T.axis.spatial(16, (j + 14) % 16)
                T.where(1 <= (j + 14) // 16)
                T.reads(C[vi, vj0 * 16 + vj1 + 2])
                T.writes(D[vi, vj0 * 16 + vj1])
                D[vi, vj0 * 16 + vj1] = C[vi, vj0 * 16 + vj1 + 2] + T.float32(1.0)
    """)
    _same_numbers(before, sch, [(4, 66), (4, 64)])


WRAP = parse("""
@T.prim_func
def main(A: T.Buffer((4, 64), "float32"), D: T.Buffer((4, 48), "float32")):
    C = T.alloc_buffer((4, 64))
    for i, j0, j1 in T.grid(4, 4, 16):
        with T.block("C"):
            vi = T.axis.spatial(4, i)
            vj = T.axis.spatial(64, j0 * 16 + j1)
            C[vi, vj] = A[vi, vj] * T.float32(2)
    for i, k0, k1 in T.grid(4, 3, 16):
        with T.block("D"):
            vi, vk0, vk1 = T.axis.remap("SSS", [i, k0, k1])
            D[vi, vk0 * 16 + vk1] = C[vi, vk0 * 16 + vk1 + 8]
""")


def test_reverse_compute_at_refuses_a_produced_region_that_wraps_the_fused_index():
    # under j0 the consumer must read C[j0*16 : j0*16+16], i.e. vk0*16+vk1 in [j0*16-8,
    # j0*16+8): the second half of one vk0 row and the first half of the next, not a box.
    # TVM 0.27 takes vk1 in [7, 8] from the corners and skips 168 of the 192 outputs.
    sch = Schedule(WRAP)
    before = sch.mod
    with pytest.raises(errors.NotCompactDataFlowError,
                       match=r'block "D".*wraps an inner part of the fused index.*loop j0'):
        sch.reverse_compute_at(sch.get_block("D"), sch.get_loops(sch.get_block("C"))[1])
    assert sch.mod is before
    # one element per j1 is a box: accepted, with the consumer guarded to its 48 outputs
    sch.reverse_compute_at(sch.get_block("D"), sch.get_loops(sch.get_block("C"))[2])
    _same_numbers(WRAP, sch, [(4, 64), (4, 48)])


def test_reverse_compute_at_of_a_stencil_consumer_is_refused_as_in_tvm():
    # the consumer reads C[vj : vj + 2]: not a single point, and dimension-wise vj..vj+1 is
    # none of TVM's patterns (TVM 0.27: ValueError "BufferRegion pattern match failed"); the
    # old code moved it anyway and read C[vi, j + 1] before it was written
    before = parse("""
    @T.prim_func
    def main(A: T.Buffer((4, 65), "float32"), D: T.Buffer((4, 64), "float32")):
        C = T.alloc_buffer((4, 65))
        for i, j in T.grid(4, 65):
            with T.block("C"):
                vi, vj = T.axis.remap("SS", [i, j])
                C[vi, vj] = A[vi, vj] * T.float32(2)
        for i, j in T.grid(4, 64):
            with T.block("D"):
                vi, vj = T.axis.remap("SS", [i, j])
                D[vi, vj] = C[vi, vj] + C[vi, vj + 1]
    """)
    sch = Schedule(before)
    mod = sch.mod
    with pytest.raises(errors.BufferRegionPatternError,
                       match=r'block "D".*\[vj, vj \+ 1\].*loop j') as info:
        sch.reverse_compute_at(sch.get_block("D"), sch.get_loops(sch.get_block("C"))[1])
    assert isinstance(info.value, ValueError)
    assert sch.mod is mod
    # compute_at the other way round is fine (C computes the two elements D reads)
    sch.compute_at(sch.get_block("C"), sch.get_loops(sch.get_block("D"))[1])
    _same_numbers(before, sch, [(4, 65), (4, 64)])


def test_reverse_compute_at_of_a_strided_read_is_refused():
    # TVM 0.27 fails an internal check (InverseAffineIterMap: the scale must be 1)
    before = parse("""
    @T.prim_func
    def main(A: T.Buffer((4, 64), "float32"), D: T.Buffer((4, 32), "float32")):
        C = T.alloc_buffer((4, 64))
        for i, j in T.grid(4, 64):
            with T.block("C"):
                vi, vj = T.axis.remap("SS", [i, j])
                C[vi, vj] = A[vi, vj] * T.float32(2)
        for i, j in T.grid(4, 32):
            with T.block("D"):
                vi, vj = T.axis.remap("SS", [i, j])
                D[vi, vj] = C[vi, vj * 2] + T.float32(1)
    """)
    sch = Schedule(before)
    mod = sch.mod
    with pytest.raises(errors.NotCompactDataFlowError, match=r'block "D".*stride 2'):
        sch.reverse_compute_at(sch.get_block("D"), sch.get_loops(sch.get_block("C"))[1])
    assert sch.mod is mod


STRIDED_ROWS = parse("""
@T.prim_func
def main(A: T.Buffer((9, 6), "float32"), C: T.Buffer((9, 6), "float32")):
    B = T.alloc_buffer((9, 6))
    for i_1, j, i_0 in T.grid(3, 6, 3):
        with T.block("B"):
            vi = T.axis.spatial(9, i_0 * 3 + i_1)
            vj = T.axis.spatial(6, j)
            B[vi, vj] = A[vi, vj] * T.float32(2)
    for i, j in T.grid(9, 6):
        with T.block("C"):
            vi, vj = T.axis.remap("SS", [i, j])
            C[vi, vj] = B[vi, vj] + T.float32(1)
""")


def test_reverse_compute_at_under_a_strided_producer_is_refused():
    # under i_1 the producer writes rows i_1, i_1 + 3, i_1 + 6: the hull [i_1, i_1 + 6] has
    # holes that later i_1 fill. TVM 0.27 moves C there anyway (rows i_1 .. i_1 + 6) and the
    # kernel reads rows not written yet; tirkit refuses (found by test_schedule_differential)
    sch = Schedule(STRIDED_ROWS)
    mod = sch.mod
    with pytest.raises(errors.NotCompactDataFlowError,
                       match=r'block "C".*under loop i_1 its producers write B only in part'):
        sch.reverse_compute_at(sch.get_block("C"), sch.get_loops(sch.get_block("B"))[0])
    assert sch.mod is mod
    # under i_0 each step writes one element: fine
    sch.reverse_compute_at(sch.get_block("C"), sch.get_loops(sch.get_block("B"))[2])
    _same_numbers(STRIDED_ROWS, sch, [(9, 6), (9, 6)])


def test_reverse_compute_at_does_not_bind_a_reduction_to_a_vectorized_loop():
    # D[vi] += C[vi, vk] moved under C's vectorized j would bind vk to the vector lanes, each
    # reading the old D[vi] (TVM 0.27 accepts it and the sum keeps one lane); vectorize itself
    # refuses such a loop, and so does reverse_compute_at now
    sch = Schedule(SPLIT_READ)
    sch.vectorize(sch.get_loops(sch.get_block("C"))[2])
    mod = sch.mod
    with pytest.raises(errors.WrongBlockIterTypeError,
                       match=r'loop "j1" cannot be vectorized: block "D".*reduction iter var'):
        sch.reverse_compute_at(sch.get_block("D"), sch.get_loops(sch.get_block("C"))[2])
    assert sch.mod is mod
    # one level up, the lanes stay data-parallel for C and D's ax0 loop is serial
    sch.reverse_compute_at(sch.get_block("D"), sch.get_loops(sch.get_block("C"))[1])
    _same_numbers(SPLIT_READ, sch, [(4, 64), (4,)])
