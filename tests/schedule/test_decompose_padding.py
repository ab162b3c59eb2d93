"""decompose_padding: before/after TVMScript (TVM's example, 2-D, an inner loop), compiled and
compared with NumPy, one error case per precondition, trace round trip."""
import numpy as np
import pytest

from tirkit.compiler import build
from tirkit.schedule import Schedule, errors
from tirkit.schedule.primitives import cache_layout_errors as X
from tirkit.schedule.testing import verify_trace_roundtrip
from sched_util import check, parse

PAD1D = parse("""
@T.prim_func
def main(x: T.Buffer(128, "int32"), y: T.Buffer(140, "int32")):
    for i in range(140):
        with T.block("block"):
            vi = T.axis.remap("S", [i])
            y[vi] = T.if_then_else(vi >= 6 and vi < 134, x[vi - 6], 0)
""")

PAD2D = parse("""
@T.prim_func
def main(x: T.Buffer((30, 30), "float32"), y: T.Buffer((32, 34), "float32")):
    for i, j in T.grid(32, 34):
        with T.block("pad"):
            vi, vj = T.axis.remap("SS", [i, j])
            y[vi, vj] = T.if_then_else(1 <= vi and vi < 31 and 2 <= vj and vj < 32,
                                       x[vi - 1, vj - 2], T.float32(0))
""")


def test_decompose_padding_1d():
    sch = Schedule(PAD1D)
    const = sch.decompose_padding("block", sch.get_loops("block")[0])
    assert sch.get(const).name_hint == "block_pad_const"
    check(sch, PAD1D, """
    @T.prim_func
    def main(x: T.Buffer(128, "int32"), y: T.Buffer(140, "int32")):
        for i in range(140):
            with T.block("block_pad_const"):
                vi = T.axis.spatial(140, i)
                T.reads()
                y[vi] = 0
        for i in range(128):
            with T.block("block"):
                vi = T.axis.spatial(128, i)
                y[vi + 6] = x[vi]
    """)
    x = np.arange(128, dtype="int32")
    y = np.full(140, -5, "int32")
    build(sch.mod)["main"](x, y)
    np.testing.assert_array_equal(y, np.pad(x, (6, 6)))


def test_decompose_padding_2d_at_the_inner_loop():
    sch = Schedule(PAD2D)
    sch.decompose_padding("pad", sch.get_loops("pad")[1])
    check(sch, PAD2D, """
    @T.prim_func
    def main(x: T.Buffer((30, 30), "float32"), y: T.Buffer((32, 34), "float32")):
        for i in range(32):
            for j in range(34):
                with T.block("pad_pad_const"):
                    vi, vj = T.axis.remap("SS", [i, j])
                    T.reads()
                    y[vi, vj] = T.float32(0)
            for j in range(30):
                with T.block("pad"):
                    vi = T.axis.spatial(30, i - 1)
                    vj = T.axis.spatial(30, j)
                    T.where(1 <= i and i < 31)
                    y[vi + 1, vj + 2] = x[vi, vj]
    """)
    x = np.random.default_rng(0).standard_normal((30, 30)).astype("float32")
    y = np.full((32, 34), 7, "float32")
    build(sch.mod)["main"](x, y)
    np.testing.assert_array_equal(y, np.pad(x, ((1, 1), (2, 2))))
    verify_trace_roundtrip(sch, PAD2D)


NOT_PADDING = parse("""
@T.prim_func
def main(x: T.Buffer(8, "int32"), y: T.Buffer(8, "int32")):
    for i in range(8):
        with T.block("block"):
            vi = T.axis.remap("S", [i])
            y[vi] = x[vi] + 1
""")

COUPLED = parse("""
@T.prim_func
def main(x: T.Buffer((8, 8), "int32"), y: T.Buffer((8, 8), "int32")):
    for i, j in T.grid(8, 8):
        with T.block("block"):
            vi, vj = T.axis.remap("SS", [i, j])
            y[vi, vj] = T.if_then_else(vi + vj < 8, x[vi, vj], 0)
""")

REDUCE = parse("""
@T.prim_func
def main(x: T.Buffer((8, 8), "int32"), y: T.Buffer(8, "int32")):
    for i, k in T.grid(8, 8):
        with T.block("block"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                y[vi] = 0
            y[vi] = y[vi] + x[vi, vk]
""")

TWO_NESTS = parse("""
@T.prim_func
def main(x: T.Buffer(128, "int32"), y: T.Buffer(140, "int32"), z: T.Buffer(4, "int32")):
    for i in range(140):
        with T.block("block"):
            vi = T.axis.remap("S", [i])
            y[vi] = T.if_then_else(vi >= 6 and vi < 134, x[vi - 6], 0)
    for k in range(4):
        with T.block("other"):
            vk = T.axis.remap("S", [k])
            z[vk] = 0
""")

#: a padding block over a symbolic domain: its iter's extent ``n + 6`` is no constant (the
#: in-bound region was read with ``.value``: AttributeError, a traceback; found by mypy)
SYMBOLIC = parse("""
@T.prim_func
def main(a: T.handle, b: T.handle):
    n = T.int32()
    x = T.match_buffer(a, (n,), "int32")
    y = T.match_buffer(b, (n + 6,), "int32")
    for i in range(n + 6):
        with T.block("block"):
            vi = T.axis.remap("S", [i])
            y[vi] = T.if_then_else(vi >= 6, x[vi - 6], 0)
""")


@pytest.mark.parametrize("func,block,loop_of,error,text", [
    (NOT_PADDING, "block", "block", X.PaddingPatternMatchError,
     "constrained by a padding predicate"),
    (COUPLED, "block", "block", X.PaddingPatternMatchError, "not independent"),
    (REDUCE, "block", "block", errors.NotCompleteBlockError, "data-parallel"),
    (TWO_NESTS, "block", "other", errors.LoopPositionError, "needs a loop above the block"),
    (SYMBOLIC, "block", "block", X.PaddingPatternMatchError,
     r"iter vi has the domain \[0, \+n \+ 6\), not constant"),
])
def test_decompose_padding_errors(func, block, loop_of, error, text):
    sch = Schedule(func)
    loop = sch.get_loops(loop_of)[0]
    before = sch.mod
    with pytest.raises(error, match=text):
        sch.decompose_padding(block, loop)
    assert sch.mod is before
    verify_trace_roundtrip(sch, func)


PAD_1x4x6 = parse("""
@T.prim_func
def main(data: T.Buffer((1, 4, 6), "float32"), out: T.Buffer((1, 4, 8), "float32")):
    for n, c, w in T.grid(1, 4, 8):
        with T.block("pad"):
            vn, vc, vw = T.axis.remap("SSS", [n, c, w])
            out[vn, vc, vw] = T.if_then_else(1 <= vw and vw < 7, data[vn, vc, vw - 1],
                                             T.float32(0))
""")


def test_decompose_padding_in_bound_block_keeps_the_block_predicate():
    """Found by the wide examples' fuzzer with bound checks (conv2d_nchw.py: split n (1) by 2,
    decompose_padding of pad at loop c: data[144] read, OUT OF THE BOUNDS): the in-bound block
    under the loops n_0, n_1 got only the padding predicate, not the block's own T.where(n_0 *
    2 + n_1 < 1), so it ran for n_1 = 1. The const block kept it; now the in-bound one does."""
    sch = Schedule(PAD_1x4x6)
    sch.split(sch.get_loops("pad")[0], [None, 2])
    sch.decompose_padding("pad", sch.get_loops("pad")[2])
    assert "T.where(n_1 < 1)" in sch.mod.script().split('T.block("pad")')[1]
    verify_trace_roundtrip(sch, PAD_1x4x6)
    d = np.random.default_rng(0).standard_normal((1, 4, 6)).astype("float32")
    o = np.full((1, 4, 8), np.nan, "float32")
    build(sch.mod, config={"tir.instrument_bound_checkers": True})["main"](d, o)
    np.testing.assert_allclose(o, np.pad(d, ((0, 0), (0, 0), (1, 1))))


STENCIL = parse("""
@T.prim_func
def main(A: T.Buffer((6,), "float32"), B: T.Buffer((6,), "float32")):
    P = T.alloc_buffer((8,))
    for i in range(8):
        with T.block("P"):
            vi = T.axis.spatial(8, i)
            P[vi] = T.if_then_else(1 <= vi and vi < 7, A[vi - 1], T.float32(0))
    for i in range(6):
        with T.block("B"):
            vi = T.axis.spatial(6, i)
            B[vi] = P[vi] + P[vi + 2]
""")


def test_decompose_padding_at_a_loop_holding_another_block_is_not_single_child():
    """Found by the wide fuzzer (fuzz_kernels.py's stencil_pad: write_at of the pad block, whose
    copy-back block then shares its loop, then decompose_padding at that loop;
    --hypothesis-seed=9): the loop nest was rebuilt with the pad block only and the copy block
    was dropped, so the padded buffer was never written (NaNs)."""
    sch = Schedule(STENCIL)
    sch.write_at(sch.get_loops("P")[0], sch.get_block("P"), 0, "global")
    before = sch.mod
    with pytest.raises(errors.NotSingleChildBlockError,
                       match=r'loop "i" holds other blocks than block "P" \(P_global\)'):
        sch.decompose_padding("P", sch.get_loops("P")[0])
    assert sch.mod is before
