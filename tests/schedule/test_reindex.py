"""reindex: before/after TVMScript, one error case per precondition, trace round trip."""
import pytest

from tirkit.schedule import Schedule, errors
from tirkit.schedule.primitives import cache_layout_errors as X
from tirkit.schedule.testing import verify_trace_roundtrip
from sched_util import check, parse

MATMUL = parse("""
@T.prim_func
def main(A: T.Buffer((64, 64), "float32"), B: T.Buffer((64, 64), "float32"),
         C: T.Buffer((64, 64), "float32")):
    for i, j, k in T.grid(64, 64, 64):
        with T.block("C"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vj, vk]
""")


def test_reindex_write_then_read():
    sch = Schedule(MATMUL)
    write = sch.reindex("C", ("write", 0))
    read = sch.reindex("C", ("read", 1))
    assert [sch.get(write).name_hint, sch.get(read).name_hint] == ["C_reindex", "B_reindex"]
    check(sch, MATMUL, """
    @T.prim_func
    def main(A: T.Buffer((64, 64), "float32"), B: T.Buffer((64, 64), "float32"),
             C: T.Buffer((64, 64), "float32")):
        C_reindex = T.alloc_buffer((64, 64))
        B_reindex = T.alloc_buffer((64, 64))
        for ax0, ax1 in T.grid(64, 64):
            with T.block("B_reindex"):
                v0, v1 = T.axis.remap("SS", [ax0, ax1])
                B_reindex[v0, v1] = B[v0, v1]
        for i, j, k in T.grid(64, 64, 64):
            with T.block("C"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                T.reads(A[vi, vk], B_reindex[vj, vk])
                T.writes(C_reindex[vi, vj])
                with T.init():
                    C_reindex[vi, vj] = T.float32(0)
                C_reindex[vi, vj] = C_reindex[vi, vj] + A[vi, vk] * B_reindex[vj, vk]
        for ax0, ax1 in T.grid(64, 64):
            with T.block("C_reindex"):
                v0, v1 = T.axis.remap("SS", [ax0, ax1])
                C[v0, v1] = C_reindex[v0, v1]
    """)


SHIFTED = parse("""
@T.prim_func
def main(A: T.Buffer((16, 20), "float32"), B: T.Buffer((16, 16), "float32")):
    for i, j in T.grid(16, 16):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj + 4]
""")


def test_reindex_read_indexes_by_the_block_iters():
    sch = Schedule(SHIFTED)
    sch.reindex("B", "A")
    check(sch, SHIFTED, """
    @T.prim_func
    def main(A: T.Buffer((16, 20), "float32"), B: T.Buffer((16, 16), "float32")):
        A_reindex = T.alloc_buffer((16, 16))
        for ax0, ax1 in T.grid(16, 16):
            with T.block("A_reindex"):
                v0, v1 = T.axis.remap("SS", [ax0, ax1])
                A_reindex[v0, v1] = A[v0, v1 + 4]
        for i, j in T.grid(16, 16):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = A_reindex[vi, vj]
    """)


TWO_PATTERNS = parse("""
@T.prim_func
def main(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
    for i in range(15):
        with T.block("B"):
            vi = T.axis.remap("S", [i])
            B[vi] = A[vi] + A[vi + 1]
""")

OPAQUE = parse("""
@T.prim_func
def main(A: T.Buffer((16,), "float32")):
    for i in range(16):
        with T.block("A"):
            vi = T.axis.remap("S", [i])
            T.reads(A[vi])
            T.writes(A[vi])
            T.call_extern("int32", "touch", A.data, vi)
""")

NESTED = parse("""
@T.prim_func
def main(A: T.Buffer((16,), "float32")):
    for i in range(4):
        with T.block("outer"):
            vi = T.axis.remap("S", [i])
            T.reads()
            T.writes(A[vi * 4:vi * 4 + 4])
            for j in range(4):
                with T.block("inner"):
                    vj = T.axis.remap("S", [j])
                    A[vi * 4 + vj] = T.float32(0)
""")


@pytest.mark.parametrize("func,call,error,text", [
    (TWO_PATTERNS, lambda s: s.reindex("B", ("read", 0)), X.InvalidBufferAccessError,
     "accessed with different indices"),
    (OPAQUE, lambda s: s.reindex("A", ("write", 0)), X.InvalidBufferAccessError,
     "accessed opaquely"),
    (NESTED, lambda s: s.reindex("outer", ("write", 0)), X.NotLeafBlockError,
     'block "outer" is not a leaf block'),
    (MATMUL, lambda s: s.reindex("C", ("read", 7)), errors.BufferIndexOutOfRangeError,
     "read buffer index 7"),
])
def test_reindex_errors(func, call, error, text):
    sch = Schedule(func)
    before = sch.mod
    with pytest.raises(error, match=text):
        call(sch)
    assert sch.mod is before
    verify_trace_roundtrip(sch, func)


# the examples' schedule fuzzer (conv2d_nchw.py, bound-checked builds): reindex of pad's guarded
# read of data made an unguarded copy stage reading data[0, v0, v1 - 1, v2 - 1] for v1 = 0
GUARDED_PAD = parse("""
@T.prim_func
def main(data: T.Buffer((4, 6, 6), "float32"), pad: T.Buffer((4, 8, 8), "float32")):
    for c, h, w in T.grid(4, 8, 8):
        with T.block("pad"):
            vc, vh, vw = T.axis.remap("SSS", [c, h, w])
            pad[vc, vh, vw] = T.if_then_else(1 <= vh and vh < 7 and 1 <= vw and vw < 7,
                                             data[vc, vh - 1, vw - 1], T.float32(0))
""")


def test_reindex_refuses_a_copy_stage_reading_out_of_bounds():
    sch = Schedule(GUARDED_PAD)
    before = sch.mod
    text = before.script()
    with pytest.raises(X.InvalidBufferAccessError,
                       match=r'block "pad".*data out of bounds: index 1 takes values in \[-1, 6\]'):
        sch.reindex("pad", ("read", 0))
    assert sch.mod is before and sch.mod.script() == text
    sch.reindex("pad", ("write", 0))  # the write pad[vc, vh, vw] stays inside pad


ACCUMULATE = parse("""
@T.prim_func
def main(A: T.Buffer((8,), "float32"), C: T.Buffer((8,), "float32")):
    for i in range(8):
        with T.block("C"):
            vi = T.axis.remap("S", [i])
            C[vi] = C[vi] + A[vi]
""")


def test_reindex_refuses_one_side_of_a_buffer_the_block_reads_and_writes():
    """Found by the wide examples' fuzzer (matmul_naive.py: decompose_reduction, then reindex
    C_update's write: all 400 outputs wrong): every access of C in the block moves to
    C_reindex, so the update read C_reindex[vi, vj] + ... while C_init still zeroed C and
    nothing copied C in; reindexing such a read instead moves the writes too, and nothing copies
    them back to C. TVM 0.27 applies both and builds the same kernels. Reindexing the write
    before decompose_reduction (the block starts from its T.init) is right."""
    import numpy as np
    from tirkit.compiler import build

    sch = Schedule(MATMUL)
    sch.decompose_reduction("C", sch.get_loops("C")[0])
    before = sch.mod
    with pytest.raises(X.ReadModifyWriteError,
                       match='block "C_update" reads and writes C: it has no T.init, so with '
                       "the write reindexed it would read C_reindex before anything"):
        sch.reindex("C_update", ("write", 0))
    assert sch.mod is before
    acc = Schedule(ACCUMULATE)
    acc_before = acc.mod
    with pytest.raises(X.ReadModifyWriteError, match="reindexing the read would move its "
                       "writes to C_reindex too"):
        acc.reindex("C", ("read", 0))
    with pytest.raises(X.ReadModifyWriteError, match="it has no T.init"):
        acc.reindex("C", ("write", 0))
    assert acc.mod is acc_before
    sch = Schedule(MATMUL)
    sch.reindex("C", ("write", 0))
    sch.decompose_reduction("C", sch.get_loops("C")[0])
    rng = np.random.default_rng(0)
    a, b = (rng.standard_normal((64, 64)).astype("float32") for _ in range(2))
    c = np.full((64, 64), np.nan, "float32")
    build(sch.mod)["main"](a, b, c)
    np.testing.assert_allclose(c, a @ b.T, rtol=1e-4, atol=1e-4)


PADDED_TAIL = parse("""
@T.prim_func
def main(A: T.Buffer((14,), "float32"), C: T.Buffer((14,), "float32")):
    B = T.alloc_buffer((16,))
    for i in range(14):
        with T.block("B"):
            vi = T.axis.spatial(14, i)
            B[vi] = A[vi]
    for i in range(16):
        with T.block("B_pad"):
            vi = T.axis.spatial(16, i)
            T.where(14 <= i)
            B[vi] = T.float32(0)
    for i in range(14):
        with T.block("C"):
            vi = T.axis.spatial(14, i)
            C[vi] = B[vi] + T.float32(1)
""")

SHORT_LOOP = parse("""
@T.prim_func
def main(A: T.Buffer((16,), "float32"), C: T.Buffer((16,), "float32")):
    B = T.alloc_buffer((16,))
    for i in range(8):
        with T.block("B1"):
            vi = T.axis.spatial(16, i + 8)
            B[vi] = A[vi] * T.float32(2)
    for i in range(8):
        with T.block("B0"):
            vi = T.axis.spatial(16, i)
            B[vi] = A[vi]
    for i in range(16):
        with T.block("C"):
            vi = T.axis.spatial(16, i)
            C[vi] = B[vi] + T.float32(1)
""")

GUARDED_STORE = parse("""
@T.prim_func
def main(A: T.Buffer((16,), "float32"), C: T.Buffer((16,), "float32")):
    B = T.alloc_buffer((16,))
    for i in range(16):
        with T.block("B0"):
            vi = T.axis.spatial(16, i)
            B[vi] = A[vi]
    for i in range(16):
        with T.block("B1"):
            vi = T.axis.spatial(16, i)
            if vi % 2 == 0:
                B[vi] = T.float32(0)
    for i in range(16):
        with T.block("C"):
            vi = T.axis.spatial(16, i)
            C[vi] = B[vi] + T.float32(1)
""")


@pytest.mark.parametrize("func, block, why", [
    (PADDED_TAIL, "B_pad", r"its predicate 14 <= i"),
    (SHORT_LOOP, "B0", r"iter vi takes values in \[0, 7\] over its loops, not all of \[0, 15\]"),
    (GUARDED_STORE, "B1", r"the store to B is under a condition"),
])
def test_reindex_refuses_a_write_the_block_does_not_make_everywhere(func, block, why):
    """Found by the wide examples' fuzzer (topi_conv2d_nhwc: transform_layout of PadInput with a
    pad_value, then reindex of the padding block's write: all 27 outputs 0): the copy stage
    copies the new buffer back at every point of the block's iter domain, but the padding block
    writes only where its predicate holds, so the copy overwrote the padded input with zeros.
    Same for a loop that covers part of the iter domain and a store under an if. TVM 0.27
    applies all three and builds the wrong kernels."""
    sch = Schedule(func)
    before = sch.mod
    with pytest.raises(X.ReIndexPartialWriteError, match=f'block "{block}".*' + why):
        sch.reindex(block, ("write", 0))
    assert sch.mod is before
    sch.reindex(block, ("read", 0)) if sch.get(sch.get_block(block)).reads else None


def test_reindex_write_after_a_split_with_a_tail_keeps_the_numbers():
    """A predicate the iter domain implies (a split by a non-divisor) does not stop reindex."""
    import numpy as np
    from tirkit.compiler import build

    sch = Schedule(PADDED_TAIL)
    sch.split(sch.get_loops("B")[0], [None, 4])
    sch.reindex("B", ("write", 0))
    a = np.arange(14, dtype="float32")
    c = np.zeros(14, "float32")
    build(sch.mod)["main"](a, c)
    np.testing.assert_allclose(c, a + 1)
