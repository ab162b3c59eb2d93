"""cache_index: before/after TVMScript (TVM's resize example), the common-subexpression
threshold, compiled and compared with NumPy, error cases, trace round trip."""
import numpy as np
import pytest

from tirkit.compiler import build
from tirkit.schedule import Schedule, errors
from tirkit.schedule.primitives import cache_layout_errors as X
from tirkit.schedule.testing import verify_trace_roundtrip
from sched_util import check, parse

RESIZE = parse("""
@T.prim_func
def main(A: T.Buffer((1, 3, 40, 40), "float32"), B: T.Buffer((1, 3, 80, 80), "float32")):
    for i0, i1, i2, i3 in T.grid(1, 3, 80, 80):
        with T.block("A"):
            n, c, vi, vj = T.axis.remap("SSSS", [i0, i1, i2, i3])
            B[n, c, vi, vj] = A[n, c, vi // 4 + vj // 4, vj // 2]
""")


def test_cache_index_resize():
    sch = Schedule(RESIZE)
    blocks = sch.cache_index("A", "global", 1)
    assert [sch.get(b).name_hint for b in blocks] == ["index_0", "index_1"]
    check(sch, RESIZE, """
    @T.prim_func
    def main(A: T.Buffer((1, 3, 40, 40), "float32"), B: T.Buffer((1, 3, 80, 80), "float32")):
        index_var_0 = T.alloc_buffer((80, 80), "int32")
        index_var_1 = T.alloc_buffer((80,), "int32")
        for ax0, ax1 in T.grid(80, 80):
            with T.block("index_0"):
                v0, v1 = T.axis.remap("SS", [ax0, ax1])
                T.reads()
                T.writes(index_var_0[v0, v1])
                index_var_0[v0, v1] = v0 // 4 + v1 // 4
        for ax0 in range(80):
            with T.block("index_1"):
                v0 = T.axis.spatial(80, ax0)
                T.reads()
                T.writes(index_var_1[v0])
                index_var_1[v0] = v0 // 2
        for i0, i1, i2, i3 in T.grid(1, 3, 80, 80):
            with T.block("A"):
                n, c, vi, vj = T.axis.remap("SSSS", [i0, i1, i2, i3])
                T.reads(A[n, c, vi // 4 + vj // 4, vj // 2], index_var_0[vi, vj],
                        index_var_1[vj])
                T.writes(B[n, c, vi, vj])
                B[n, c, vi, vj] = A[n, c, index_var_0[vi, vj], index_var_1[vj]]
    """)
    a = np.random.default_rng(0).standard_normal((1, 3, 40, 40)).astype("float32")
    b = np.full((1, 3, 80, 80), np.nan, "float32")
    build(sch.mod)["main"](a, b)
    ii, jj = np.meshgrid(np.arange(80), np.arange(80), indexing="ij")
    np.testing.assert_array_equal(b, a[:, :, ii // 4 + jj // 4, jj // 2])


REPEATED = parse("""
@T.prim_func
def main(A: T.Buffer((8, 9), "float32"), B: T.Buffer((16, 8), "float32")):
    for i, j in T.grid(16, 8):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi // 2, vj] + A[vi // 2, vj + 1]
""")


def test_cse_threshold_caches_only_repeated_computations():
    sch = Schedule(REPEATED)
    blocks = sch.cache_index("B", "global", 2)
    assert len(blocks) == 1
    text = sch.mod.script()
    assert "index_var_0[v0] = v0 // 2" in text and "index_var_1" not in text
    assert "A[index_var_0[vi], vj] + A[index_var_0[vi], vj + 1]" in text
    verify_trace_roundtrip(sch, REPEATED)


def test_nothing_to_cache_leaves_the_block_alone():
    sch = Schedule(RESIZE)
    before = sch.mod
    assert sch.cache_index("A", "global", 5) == []
    assert sch.mod is before
    verify_trace_roundtrip(sch, RESIZE)


@pytest.mark.parametrize("args,error,text", [
    (("global", -1), errors.InvalidArgumentError, "should not be negative"),
    (("nowhere", 0), errors.InvalidScopeError, "'nowhere' is invalid"),
])
def test_cache_index_errors(args, error, text):
    sch = Schedule(RESIZE)
    before = sch.mod
    with pytest.raises(error, match=text):
        sch.cache_index("A", *args)
    assert sch.mod is before


SHIFTED = parse("""
@T.prim_func
def main(A: T.Buffer((18,), "float32"), B: T.Buffer((16,), "float32")):
    for i in range(16):
        with T.block("B"):
            vi = T.axis.spatial(16, i)
            B[vi] = A[vi + 1] + A[vi + 2]
""")


def test_cache_index_of_a_split_binding_is_not_trivial_binding():
    """Found by the wide fuzzer (stencil_pad: a split by 7, then cache_index; SCHED_FUZZ_BOUNDS=1
    --hypothesis-seed=6): the stage paired the block var with the wrong loops and raised a
    KeyError. Each cached index's block var must be bound to a loop of its own."""
    sch = Schedule(SHIFTED)
    sch.split(sch.get_loops("B")[0], [None, 7])
    before = sch.mod
    with pytest.raises(X.BlockHasNontrivialBindingError,
                       match=r'block "B": cache_index of vi \+ 1: vi is bound to '
                             r"i_0 \* 7 \+ i_1"):
        sch.cache_index("B", "global", 1)
    assert sch.mod is before
    plain = Schedule(SHIFTED)
    plain.cache_index("B", "global", 1)
    verify_trace_roundtrip(plain, SHIFTED)


def test_cache_index_of_an_index_over_an_outer_blocks_iter_is_not_trivial_binding():
    """Found by the wide fuzzer (conv1d_strided and topi_conv2d_nhwc: blockize, then
    cache_index of the inner block; SCHED_FUZZ_ONLY=... --hypothesis-seed=8, seed 9): the index
    used the outer block's iter var, and the stage raised a KeyError looking up its binding."""
    sch = Schedule(SHIFTED)
    sch.split(sch.get_loops("B")[0], [None, 4])
    sch.blockize(sch.get_loops("B")[1])
    before = sch.mod
    with pytest.raises(X.BlockHasNontrivialBindingError, match="not an iter var of the block"):
        sch.cache_index("B", "global", 1)
    assert sch.mod is before
