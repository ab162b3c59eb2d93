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
])
def test_annotate_buffer_access_errors(call, error, text):
    sch = Schedule(ELEMWISE)
    before = sch.mod
    with pytest.raises(error, match=text):
        call(sch)
    assert sch.mod is before
