"""reindex_cache_read, reindex_cache_write and annotate_buffer_access: before/after TVMScript,
one error case per precondition, trace round trip (index maps and range lambdas included)."""
import pytest

from tirkit.schedule import Schedule, errors
from tirkit.schedule.primitives import cache_layout_errors as X
from tirkit.schedule.testing import verify_trace_roundtrip
from sched_util import check, parse

ELEMWISE = parse("""
@T.prim_func
def main(A: T.Buffer((128, 128), "float32"), B: T.Buffer((128, 128), "float32")):
    for i, j in T.grid(128, 128):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] * T.float32(2)
""")


def test_reindex_cache_read_transposes_the_cache():
    sch = Schedule(ELEMWISE)
    sch.reindex_cache_read("B", 0, "local", lambda vi, vj: (vj, vi))
    check(sch, ELEMWISE, """
    @T.prim_func
    def main(A: T.Buffer((128, 128), "float32"), B: T.Buffer((128, 128), "float32")):
        A_local = T.alloc_buffer((128, 128), scope="local")
        for ax0, ax1 in T.grid(128, 128):
            with T.block("A_local"):
                v0, v1 = T.axis.remap("SS", [ax0, ax1])
                A_local[v1, v0] = A[v0, v1]
        for i, j in T.grid(128, 128):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = A_local[vj, vi] * T.float32(2)
    """)


def test_reindex_cache_write_tiles_the_cache():
    sch = Schedule(ELEMWISE)
    sch.reindex_cache_write("B", 0, "shared", lambda vi, vj: (vi // 16, vj, vi % 16))
    check(sch, ELEMWISE, """
    @T.prim_func
    def main(A: T.Buffer((128, 128), "float32"), B: T.Buffer((128, 128), "float32")):
        B_shared = T.alloc_buffer((8, 128, 16), scope="shared")
        for i, j in T.grid(128, 128):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                B_shared[vi // 16, vj, vi % 16] = A[vi, vj] * T.float32(2)
        for ax0, ax1 in T.grid(128, 128):
            with T.block("B_shared"):
                v0, v1 = T.axis.remap("SS", [ax0, ax1])
                B[v0, v1] = B_shared[v0 // 16, v1, v0 % 16]
    """)


WINDOW = parse("""
@T.prim_func
def main(A: T.Buffer((130,), "float32"), B: T.Buffer((128,), "float32")):
    for i in range(128):
        with T.block("B"):
            vi = T.axis.remap("S", [i])
            T.reads(A[vi:vi + 3])
            T.writes(B[vi])
            B[vi] = A[vi] + A[vi + 1] + A[vi + 2]
""")


@pytest.mark.parametrize("call,error,text", [
    (lambda s: s.reindex_cache_read("B", 0, "local", lambda i: (i,)),
     X.NotSinglePointAccess, "not a single point"),
    (lambda s: s.reindex_cache_write("B", 0, "local", lambda i, j: (i, j)),
     X.ReindexCacheReadWriteNotMatchError, "takes 2 indices but the block has 1 iters"),
    (lambda s: s.reindex_cache_write("B", 0, "texture2d", lambda i: (i,)),
     errors.InvalidScopeError, "'texture2d' is invalid"),
    (lambda s: s.reindex_cache_read("B", 2, "local", lambda i: (i,)),
     errors.BufferIndexOutOfRangeError, "read buffer index 2"),
])
def test_reindex_cache_errors(call, error, text):
    sch = Schedule(WINDOW)
    before = sch.mod
    with pytest.raises(error, match=text):
        call(sch)
    assert sch.mod is before
    verify_trace_roundtrip(sch, WINDOW)


def test_annotate_buffer_access_read_and_write():
    sch = Schedule(ELEMWISE)
    sch.annotate_buffer_access("B", 0, "read", lambda vi, vj: ((vi - 1, vi + 1), (vj - 1, vj + 1)))
    sch.annotate_buffer_access("B", 0, "write", lambda vi, vj: (vi, (vj, vj + 1)))
    check(sch, ELEMWISE, """
    @T.prim_func
    def main(A: T.Buffer((128, 128), "float32"), B: T.Buffer((128, 128), "float32")):
        for i, j in T.grid(128, 128):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(A[vi - 1:vi + 1, vj - 1:vj + 1])
                T.writes(B[vi, vj])
                T.block_attr({"explicit_read_region": [0], "explicit_write_region": [0]})
                B[vi, vj] = A[vi, vj] * T.float32(2)
    """)
    assert "gen_new_ranges=lambda vi, vj: [(vi - 1, vi + 1), (vj - 1, vj + 1)]" in \
        "\n".join(sch.trace.as_python())


@pytest.mark.parametrize("call,error,text", [
    (lambda s: s.annotate_buffer_access("B", 1, "read", lambda vi, vj: (vi, vj)),
     errors.BufferIndexOutOfRangeError, "read buffer index 1"),
    (lambda s: s.annotate_buffer_access("B", 0, "read", lambda vi, vj: (vi,)),
     errors.InvalidArgumentError, "gives 1 range"),
    # found by a wrong-argument probe: a TypeError of the lambda call, a KeyError
    (lambda s: s.annotate_buffer_access("B", 0, "read", lambda vi: (vi, vi)),
     errors.InvalidArgumentError, 'block "B": gen_new_ranges must be a function of the '
     "block's 2 iter"),
    (lambda s: s.annotate_buffer_access("B", 0, "read", lambda vi, vj: ((vi, vi + 1, 2), vj)),
     errors.InvalidArgumentError, r'block "B": gen_new_ranges must return one \(begin, end\)'),
    (lambda s: s.annotate_buffer_access("B", 0, "rd", lambda vi, vj: (vi, vj)),
     errors.InvalidArgumentError, "buf_type must be 'read' or 'write', got 'rd'"),
])
def test_annotate_buffer_access_errors(call, error, text):
    sch = Schedule(ELEMWISE)
    before = sch.mod
    with pytest.raises(error, match=text):
        call(sch)
    assert sch.mod is before


TWO_STAGE = parse("""
@T.prim_func
def main(A: T.Buffer((16, 12), "float32"), B: T.Buffer((12, 8), "float32"),
         D: T.Buffer((16, 8), "float32")):
    C = T.alloc_buffer((16, 8))
    for i, j, k in T.grid(16, 8, 12):
        with T.block("C"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
    for i, j in T.grid(16, 8):
        with T.block("D"):
            vi, vj = T.axis.remap("SS", [i, j])
            D[vi, vj] = T.max(C[vi, vj], T.float32(0))
""")


def _decomposed(sch):
    sch.decompose_reduction("C", sch.get_loops("C")[0])


@pytest.mark.parametrize("prep,call,error,text", [
    (None, lambda s: s.reindex_cache_write("C", 0, "global", lambda i, j, k: (i, j, k)),
     X.ReindexCacheReadWriteNotMatchError, "the block iter vk appears in the cache indices "
     r"\(vi, vj, vk\) but not in the access C\[vi, vj\]"),
    (None, lambda s: s.reindex_cache_write("D", 0, "global", lambda i, j: (0, 0)),
     X.ReindexCacheReadWriteNotMatchError, r"the block iter vi appears in the access D\[vi, vj\]"),
    (None, lambda s: s.reindex_cache_read("D", 0, "global", lambda i, j: (i, j // 2)),
     X.NotBijectiveAffineIndexMapError, 'reindex_cache_read of block "D".*not one-to-one'),
    (None, lambda s: s.reindex_cache_read("D", 0, "global", lambda i, j: (i + 1, j)),
     X.IndexMapRangeError, 'block "D": the index map .* does not start at 0'),
    (_decomposed, lambda s: s.reindex_cache_write("C_update", 0, "global",
                                                  lambda i, j, k: (i, j)),
     X.ReadModifyWriteError, 'block "C_update" reads and writes C: it has no T.init.*C_global'),
    (_decomposed, lambda s: s.reindex_cache_read("C_update", 0, "global",
                                                 lambda i, j, k: (i, j)),
     X.ReadModifyWriteError, "reindexing the read would move its writes to C_global"),
])
def test_reindex_cache_refuses_maps_and_accesses_the_copy_stage_gets_wrong(prep, call, error,
                                                                           text):
    """Found by a wrong-argument probe: each was accepted and the kernel computed wrong numbers
    (a cache index with an iter the access does not use -- the copy stage runs at its min
    only --, one without an iter it does use, a map that is not one-to-one, the accumulation of
    a decomposed reduction), or the map's shape raised a ValueError. TVM 0.27 refuses the
    first two (ReindexCacheReadWriteNotMatchError); reindex already refused the last two."""
    sch = Schedule(TWO_STAGE)
    if prep is not None:
        prep(sch)
    before = sch.mod
    with pytest.raises(error, match=text):
        call(sch)
    assert sch.mod is before


def test_reindex_cache_of_a_matmul_keeps_the_numbers():
    import numpy as np
    from tirkit.compiler import build

    sch = Schedule(TWO_STAGE)
    sch.reindex_cache_write("C", 0, "global", lambda i, j, k: (j, i))
    sch.reindex_cache_read("C", 1, "global", lambda i, j, k: (k // 4, j, k % 4))
    verify_trace_roundtrip(sch, TWO_STAGE)
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((16, 12), "float32"), rng.standard_normal((12, 8), "float32")
    d = np.zeros((16, 8), "float32")
    build(sch.mod)["main"](a, b, d)
    np.testing.assert_allclose(d, np.maximum(a @ b, 0), rtol=1e-5, atol=1e-5)
