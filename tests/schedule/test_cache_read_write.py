"""cache_read, cache_write (with consumer_blocks), cache_inplace: before/after TVMScript, one
error case per precondition (TVM's error names), trace round trip on every case."""
import pytest

from tirkit.schedule import Schedule, errors
from tirkit.schedule.primitives import cache_layout_errors as X
from tirkit.schedule.testing import verify_trace_roundtrip
from sched_util import check, parse

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

TWO_CONSUMERS = parse("""
@T.prim_func
def main(A: T.Buffer((64, 64), "float32"), C: T.Buffer((64, 64), "float32"),
         D: T.Buffer((64, 64), "float32")):
    B = T.alloc_buffer((64, 64))
    for i, j in T.grid(64, 64):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] * T.float32(2)
    for i, j in T.grid(64, 64):
        with T.block("C"):
            vi, vj = T.axis.remap("SS", [i, j])
            C[vi, vj] = B[vi, vj] + T.float32(1)
    for i, j in T.grid(64, 64):
        with T.block("D"):
            vi, vj = T.axis.remap("SS", [i, j])
            D[vi, vj] = B[vi, vj] * T.float32(3)
""")

UNDER_LOOP = parse("""
@T.prim_func
def main(A: T.Buffer((128, 128), "float32"), C: T.Buffer((128, 128), "float32")):
    B = T.alloc_buffer((128, 128))
    for i in range(8):
        for ii, j in T.grid(16, 128):
            with T.block("B"):
                vi = T.axis.spatial(128, i * 16 + ii)
                vj = T.axis.spatial(128, j)
                B[vi, vj] = A[vi, vj] * T.float32(2)
        for ii, j in T.grid(16, 128):
            with T.block("C"):
                vi = T.axis.spatial(128, i * 16 + ii)
                vj = T.axis.spatial(128, j)
                C[vi, vj] = B[vi, vj] + T.float32(1)
""")


def test_cache_read_intermediate_buffer():
    sch = Schedule(TWO_STAGE)
    sch.cache_read("C", 0, "local")
    check(sch, TWO_STAGE, """
    @T.prim_func
    def main(A: T.Buffer((128, 128), "float32"), C: T.Buffer((128, 128), "float32")):
        B = T.alloc_buffer((128, 128))
        B_local = T.alloc_buffer((128, 128), scope="local")
        for i, j in T.grid(128, 128):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = A[vi, vj] * T.float32(2)
        for ax0, ax1 in T.grid(128, 128):
            with T.block("B_local"):
                v0, v1 = T.axis.remap("SS", [ax0, ax1])
                B_local[v0, v1] = B[v0, v1]
        for i, j in T.grid(128, 128):
            with T.block("C"):
                vi, vj = T.axis.remap("SS", [i, j])
                C[vi, vj] = B_local[vi, vj] + T.float32(1)
    """)


def test_cache_read_input_buffer_by_name_goes_first():
    sch = Schedule(TWO_STAGE)
    block = sch.cache_read("B", "A", "shared")
    assert sch.get(block).name_hint == "A_shared"
    check(sch, TWO_STAGE, """
    @T.prim_func
    def main(A: T.Buffer((128, 128), "float32"), C: T.Buffer((128, 128), "float32")):
        B = T.alloc_buffer((128, 128))
        A_shared = T.alloc_buffer((128, 128), scope="shared")
        for ax0, ax1 in T.grid(128, 128):
            with T.block("A_shared"):
                v0, v1 = T.axis.remap("SS", [ax0, ax1])
                A_shared[v0, v1] = A[v0, v1]
        for i, j in T.grid(128, 128):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = A_shared[vi, vj] * T.float32(2)
        for i, j in T.grid(128, 128):
            with T.block("C"):
                vi, vj = T.axis.remap("SS", [i, j])
                C[vi, vj] = B[vi, vj] + T.float32(1)
    """)


def test_cache_read_only_for_given_consumers():
    sch = Schedule(TWO_CONSUMERS)
    sch.cache_read("C", 0, "shared", consumer_blocks=["C"])
    check(sch, TWO_CONSUMERS, """
    @T.prim_func
    def main(A: T.Buffer((64, 64), "float32"), C: T.Buffer((64, 64), "float32"),
             D: T.Buffer((64, 64), "float32")):
        B = T.alloc_buffer((64, 64))
        B_shared = T.alloc_buffer((64, 64), scope="shared")
        for i, j in T.grid(64, 64):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = A[vi, vj] * T.float32(2)
        for ax0, ax1 in T.grid(64, 64):
            with T.block("B_shared"):
                v0, v1 = T.axis.remap("SS", [ax0, ax1])
                B_shared[v0, v1] = B[v0, v1]
        for i, j in T.grid(64, 64):
            with T.block("C"):
                vi, vj = T.axis.remap("SS", [i, j])
                C[vi, vj] = B_shared[vi, vj] + T.float32(1)
        for i, j in T.grid(64, 64):
            with T.block("D"):
                vi, vj = T.axis.remap("SS", [i, j])
                D[vi, vj] = B[vi, vj] * T.float32(3)
    """)


def test_cache_read_inside_the_shared_loop():
    sch = Schedule(UNDER_LOOP)
    sch.cache_read("C", 0, "local")
    check(sch, UNDER_LOOP, """
    @T.prim_func
    def main(A: T.Buffer((128, 128), "float32"), C: T.Buffer((128, 128), "float32")):
        B = T.alloc_buffer((128, 128))
        B_local = T.alloc_buffer((128, 128), scope="local")
        for i in range(8):
            for ii, j in T.grid(16, 128):
                with T.block("B"):
                    vi = T.axis.spatial(128, i * 16 + ii)
                    vj = T.axis.spatial(128, j)
                    B[vi, vj] = A[vi, vj] * T.float32(2)
            for ax0, ax1 in T.grid(16, 128):
                with T.block("B_local"):
                    v0 = T.axis.spatial(128, i * 16 + ax0)
                    v1 = T.axis.spatial(128, ax1)
                    B_local[v0, v1] = B[v0, v1]
            for ii, j in T.grid(16, 128):
                with T.block("C"):
                    vi = T.axis.spatial(128, i * 16 + ii)
                    vj = T.axis.spatial(128, j)
                    C[vi, vj] = B_local[vi, vj] + T.float32(1)
    """)


def test_cache_write_basic():
    sch = Schedule(TWO_STAGE)
    sch.cache_write("B", 0, "local")
    check(sch, TWO_STAGE, """
    @T.prim_func
    def main(A: T.Buffer((128, 128), "float32"), C: T.Buffer((128, 128), "float32")):
        B = T.alloc_buffer((128, 128))
        B_local = T.alloc_buffer((128, 128), scope="local")
        for i, j in T.grid(128, 128):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                B_local[vi, vj] = A[vi, vj] * T.float32(2)
        for ax0, ax1 in T.grid(128, 128):
            with T.block("B_local"):
                v0, v1 = T.axis.remap("SS", [ax0, ax1])
                B[v0, v1] = B_local[v0, v1]
        for i, j in T.grid(128, 128):
            with T.block("C"):
                vi, vj = T.axis.remap("SS", [i, j])
                C[vi, vj] = B[vi, vj] + T.float32(1)
    """)


def test_cache_write_with_consumer_reading_the_cache():
    sch = Schedule(TWO_CONSUMERS)
    sch.cache_write("B", 0, "local", consumer_blocks=["D"])
    check(sch, TWO_CONSUMERS, """
    @T.prim_func
    def main(A: T.Buffer((64, 64), "float32"), C: T.Buffer((64, 64), "float32"),
             D: T.Buffer((64, 64), "float32")):
        B = T.alloc_buffer((64, 64))
        B_local = T.alloc_buffer((64, 64), scope="local")
        for i, j in T.grid(64, 64):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                B_local[vi, vj] = A[vi, vj] * T.float32(2)
        for ax0, ax1 in T.grid(64, 64):
            with T.block("B_local"):
                v0, v1 = T.axis.remap("SS", [ax0, ax1])
                B[v0, v1] = B_local[v0, v1]
        for i, j in T.grid(64, 64):
            with T.block("C"):
                vi, vj = T.axis.remap("SS", [i, j])
                C[vi, vj] = B[vi, vj] + T.float32(1)
        for i, j in T.grid(64, 64):
            with T.block("D"):
                vi, vj = T.axis.remap("SS", [i, j])
                D[vi, vj] = B_local[vi, vj] * T.float32(3)
    """)


def test_cache_write_inside_the_shared_loop():
    sch = Schedule(UNDER_LOOP)
    sch.cache_write("B", 0, "local")
    check(sch, UNDER_LOOP, """
    @T.prim_func
    def main(A: T.Buffer((128, 128), "float32"), C: T.Buffer((128, 128), "float32")):
        B = T.alloc_buffer((128, 128))
        B_local = T.alloc_buffer((128, 128), scope="local")
        for i in range(8):
            for ii, j in T.grid(16, 128):
                with T.block("B"):
                    vi = T.axis.spatial(128, i * 16 + ii)
                    vj = T.axis.spatial(128, j)
                    B_local[vi, vj] = A[vi, vj] * T.float32(2)
            for ax0, ax1 in T.grid(16, 128):
                with T.block("B_local"):
                    v0 = T.axis.spatial(128, i * 16 + ax0)
                    v1 = T.axis.spatial(128, ax1)
                    B[v0, v1] = B_local[v0, v1]
            for ii, j in T.grid(16, 128):
                with T.block("C"):
                    vi = T.axis.spatial(128, i * 16 + ii)
                    vj = T.axis.spatial(128, j)
                    C[vi, vj] = B[vi, vj] + T.float32(1)
    """)


INPLACE = parse("""
@T.prim_func
def main(data_io: T.Buffer((64,), "int32")):
    for i0 in range(1):
        with T.block("A"):
            T.reads(data_io[0:64])
            T.writes(data_io[0:64])
            T.call_extern("int32", "call_impl", data_io.data)
""")


def test_cache_inplace():
    sch = Schedule(INPLACE)
    read, write = sch.cache_inplace("A", 0, "local")
    assert [sch.get(read).name_hint, sch.get(write).name_hint] == ["data_io_local"] * 2
    check(sch, INPLACE, """
    @T.prim_func
    def main(data_io: T.Buffer((64,), "int32")):
        data_io_local = T.alloc_buffer((64,), "int32", scope="local")
        for i0 in range(1):
            for ax0 in range(64):
                with T.block("data_io_local"):
                    v0 = T.axis.spatial(64, ax0)
                    data_io_local[v0] = data_io[v0]
            with T.block("A"):
                T.reads(data_io_local[0:64])
                T.writes(data_io_local[0:64])
                T.call_extern("int32", "call_impl", data_io_local.data)
            for ax0 in range(64):
                with T.block("data_io_local"):
                    v0 = T.axis.spatial(64, ax0)
                    data_io[v0] = data_io_local[v0]
    """)


TWO_WRITERS = parse("""
@T.prim_func
def main(A: T.Buffer((64,), "float32"), C: T.Buffer((64,), "float32")):
    B = T.alloc_buffer((64,))
    for i in range(64):
        with T.block("B0"):
            vi = T.axis.remap("S", [i])
            B[vi] = A[vi]
    for i in range(64):
        with T.block("B1"):
            vi = T.axis.remap("S", [i])
            B[vi] = B[vi] + T.float32(1)
    for i in range(64):
        with T.block("C"):
            vi = T.axis.remap("S", [i])
            C[vi] = B[vi]
""")

NOT_COVERED = parse("""
@T.prim_func
def main(A: T.Buffer((64,), "float32"), C: T.Buffer((64,), "float32")):
    B = T.alloc_buffer((64,))
    for i in range(32):
        with T.block("B"):
            vi = T.axis.remap("S", [i])
            B[vi] = A[vi]
    for i in range(64):
        with T.block("C"):
            vi = T.axis.remap("S", [i])
            C[vi] = B[vi]
""")


@pytest.mark.parametrize("func,call,error,text", [
    (TWO_STAGE, lambda s: s.cache_read("C", 3, "local"), errors.BufferIndexOutOfRangeError,
     "read buffer index 3 is out of range"),
    (TWO_STAGE, lambda s: s.cache_write("B", 1, "local"), errors.BufferIndexOutOfRangeError,
     "write buffer index 1"),
    (TWO_STAGE, lambda s: s.cache_read("C", 0, "nowhere"), errors.InvalidScopeError,
     "'nowhere' is invalid"),
    (TWO_WRITERS, lambda s: s.cache_read("C", 0, "local"), X.NotSingleWriteBlock,
     'got 2 blocks who write it: "B0", "B1"'),
    (TWO_WRITERS, lambda s: s.cache_write("B1", 0, "local"), X.NotSingleWriteBlock,
     "expected to be written by single block"),
    (NOT_COVERED, lambda s: s.cache_read("C", 0, "local"), X.NotRegionCoverError,
     'block "C" reads a region of B that block "B" does not write'),
    (INPLACE, lambda s: s.cache_read("A", "B", "local"), errors.InvalidArgumentError,
     "does not read a buffer 'B'"),
    (TWO_STAGE, lambda s: s.cache_inplace("B", 0, "local"), X.NotReadWriteError,
     "does not both read & write the target buffer A"),
])
def test_cache_errors_leave_the_schedule_unchanged(func, call, error, text):
    sch = Schedule(func)
    before = sch.mod
    with pytest.raises(error, match=text.replace("(", r"\(").replace(")", r"\)")):
        call(sch)
    assert sch.mod is before
    verify_trace_roundtrip(sch, func)


def test_cache_write_under_a_non_divisible_split_stays_inside_the_buffer():
    """The cached region of a block under ``T.where(fused < 240)`` follows the predicate (TVM's
    AnalyzeRegionUpperBound): ``(f_0 * 7 + f_1) // 20`` covers rows 0..11, not 0..12 (a 13th
    row would be copied past the end of the 12-row buffer). Found by
    test_examples_differential.py on the softmax example."""
    import numpy as np
    from tirkit.compiler import build
    func = parse("""
    @T.prim_func
    def main(A: T.Buffer((12, 20), "float32"), C: T.Buffer((12,), "float32")):
        for i, k in T.grid(12, 20):
            with T.block("C"):
                vi, vk = T.axis.remap("SR", [i, k])
                with T.init():
                    C[vi] = T.float32(0)
                C[vi] = C[vi] + A[vi, vk]
    """)
    sch = Schedule(func)
    sch.split(sch.fuse(*sch.get_loops("C")), [None, 7])
    sch.cache_write("C", 0, "global")
    check(sch, func, """
    @T.prim_func
    def main(A: T.Buffer((12, 20), "float32"), C: T.Buffer((12,), "float32")):
        C_global = T.alloc_buffer((12,))
        for i_k_fused_0, i_k_fused_1 in T.grid(35, 7):
            with T.block("C"):
                vi = T.axis.spatial(12, (i_k_fused_0 * 7 + i_k_fused_1) // 20)
                vk = T.axis.reduce(20, (i_k_fused_0 * 7 + i_k_fused_1) % 20)
                T.where(i_k_fused_0 * 7 + i_k_fused_1 < 240)
                with T.init():
                    C_global[vi] = T.float32(0)
                C_global[vi] = C_global[vi] + A[vi, vk]
        for ax0 in range(12):
            with T.block("C_global"):
                v0 = T.axis.spatial(12, ax0)
                C[v0] = C_global[v0]
    """)
    a = np.random.default_rng(0).uniform(-1, 1, (12, 20)).astype("float32")
    c = np.zeros(12, "float32")
    build(sch.mod)["main"](a, c)
    np.testing.assert_allclose(c, a.sum(axis=1), rtol=1e-5)


def test_cache_read_of_a_predicated_producer_stays_inside_the_buffer():
    # found by SCHED_FUZZ with bound checks on: n (extent 1) split by 2 twice gives
    # T.where((n_0_0 * 2 + n_0_1) * 2 + n_1 < 1 and ...) over an index n_1 in [0, 2); the cache
    # stage was made (2, 4, 8, 8) and read pad[1, ...] past the end of pad
    import numpy as np
    from tirkit.compiler import build
    func = parse("""
    @T.prim_func
    def main(A: T.Buffer((1, 4, 6), "float32"), C: T.Buffer((1, 4, 6), "float32")):
        B = T.alloc_buffer((1, 4, 6))
        for n, c, w in T.grid(1, 4, 6):
            with T.block("B"):
                vn, vc, vw = T.axis.remap("SSS", [n, c, w])
                B[vn, vc, vw] = A[vn, vc, vw] * T.float32(2)
        for n, c, w in T.grid(1, 4, 6):
            with T.block("C"):
                vn, vc, vw = T.axis.remap("SSS", [n, c, w])
                C[vn, vc, vw] = B[vn, vc, vw] + T.float32(1)
    """)
    sch = Schedule(func)
    sch.split(sch.get_loops("B")[0], [None, 2])
    sch.split(sch.get_loops("B")[0], [None, 2])
    cache = sch.cache_read("C", 0, "global")
    assert [int(d) for d in sch.get(cache).writes[0].buffer.shape] == [1, 4, 6]
    a = np.random.default_rng(0).random((1, 4, 6), dtype="float32")
    c = np.zeros_like(a)
    build(sch.mod, config={"tir.instrument_bound_checkers": True})(a, c)
    np.testing.assert_allclose(c, a * 2 + 1, rtol=1e-6)


ACCUMULATE = parse("""
@T.prim_func
def main(A: T.Buffer((8,), "float32"), C: T.Buffer((8,), "float32")):
    for i in range(8):
        with T.block("C"):
            vi = T.axis.remap("S", [i])
            C[vi] = C[vi] + A[vi]
""")


def test_cache_write_refuses_a_block_that_reads_the_buffer_without_init():
    """C = C + A is C's only writer, so NotSingleWriteBlock lets it through, but the block reads
    C too: cache_write moved that read to C_global, which nothing had written (the kernel gave
    NaN). Found next to the same reindex bug from the wide examples' fuzzer; TVM 0.27 applies
    it and builds the same kernel. A reduction with T.init is still cached (it starts from its
    init)."""
    sch = Schedule(ACCUMULATE)
    before = sch.mod
    with pytest.raises(X.ReadModifyWriteError, match='block "C" reads and writes C: it has no '
                       "T.init, so it would read the cache of C before anything is written"):
        sch.cache_write("C", 0, "global")
    assert sch.mod is before


ACCUMULATE_10 = parse("""
@T.prim_func
def main(A: T.Buffer((10,), "float32"), C: T.Buffer((10,), "float32")):
    for i in range(10):
        with T.block("C"):
            vi = T.axis.remap("S", [i])
            C[vi] = C[vi] + A[vi]
""")


def test_cache_inplace_of_a_block_under_loops():
    """cache_inplace of a block under a loop copied the block's own region, C[vi], from stages
    outside the block, where vi is not defined (TVM 0.27 builds that ill-formed IR; tirkit's
    verifier refused it as 'cache_inplace produced ill-formed IR'). The regions are now taken at
    the loops (vi -> its binding) and the stages carry the block's predicate, so a split by a
    non-divisor copies nothing past the end. Found while checking the hint of cache_write's
    ReadModifyWriteError."""
    import numpy as np
    from tirkit.compiler import build

    sch = Schedule(ACCUMULATE_10)
    sch.split(sch.get_loops("C")[0], [None, 4])
    sch.cache_inplace("C", 0, "global")
    check(sch, ACCUMULATE_10, """
    @T.prim_func
    def main(A: T.Buffer((10,), "float32"), C: T.Buffer((10,), "float32")):
        C_global = T.alloc_buffer((10,))
        for i_0, i_1 in T.grid(3, 4):
            for ax0 in range(1):
                with T.block("C_global"):
                    v0 = T.axis.spatial(10, i_0 * 4 + i_1 + ax0)
                    T.where(i_0 * 4 + i_1 < 10)
                    T.reads(C[v0])
                    T.writes(C_global[v0])
                    C_global[v0] = C[v0]
            with T.block("C"):
                vi = T.axis.spatial(10, i_0 * 4 + i_1)
                T.where(i_0 * 4 + i_1 < 10)
                T.reads(C_global[vi], A[vi])
                T.writes(C_global[vi])
                C_global[vi] = C_global[vi] + A[vi]
            for ax0 in range(1):
                with T.block("C_global"):
                    v0 = T.axis.spatial(10, i_0 * 4 + i_1 + ax0)
                    T.where(i_0 * 4 + i_1 < 10)
                    T.reads(C_global[v0])
                    T.writes(C[v0])
                    C[v0] = C_global[v0]
    """)
    a, c = np.ones(10, "float32"), np.arange(10, dtype="float32")
    build(sch.mod, config={"tir.instrument_bound_checkers": True})["main"](a, c)
    np.testing.assert_allclose(c, np.arange(10) + 1)
