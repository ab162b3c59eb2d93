"""rolling_buffer: before/after TVMScript (TVM's example), a stencil compiled and compared with
NumPy, one error case per precondition, trace round trip."""
import numpy as np
import pytest

from tirkit.compiler import build
from tirkit.schedule import Schedule, errors
from tirkit.schedule.primitives import cache_layout_errors as X
from tirkit.schedule.testing import verify_trace_roundtrip
from sched_util import check, parse

POOL = parse("""
@T.prim_func
def main(A: T.Buffer((12, 12), "int8"), C: T.Buffer((8, 8), "int8")):
    B = T.alloc_buffer([10, 10], dtype="int8")
    for i0, i1 in T.grid(2, 2):
        for ax0, ax1, ax2, ax3 in T.grid(6, 6, 3, 3):
            with T.block("B"):
                ax0_1 = T.axis.spatial(10, i0 * 4 + ax0)
                ax1_1 = T.axis.spatial(10, i1 * 4 + ax1)
                rv0, rv1 = T.axis.remap("RR", [ax2, ax3])
                B[ax0_1, ax1_1] = T.max(B[ax0_1, ax1_1], A[ax0_1 + rv0, ax1_1 + rv1])
        for ax0, ax1, ax2, ax3 in T.grid(4, 4, 3, 3):
            with T.block("C"):
                ax0_1 = T.axis.spatial(8, i0 * 4 + ax0)
                ax1_1 = T.axis.spatial(8, i1 * 4 + ax1)
                rv0, rv1 = T.axis.remap("RR", [ax2, ax3])
                C[ax0_1, ax1_1] = T.max(C[ax0_1, ax1_1], B[ax0_1 + rv0, ax1_1 + rv1])
""")


def test_rolling_buffer_pooling_example():
    sch = Schedule(POOL)
    sch.rolling_buffer("B", 0)
    check(sch, POOL, """
    @T.prim_func
    def main(A: T.Buffer((12, 12), "int8"), C: T.Buffer((8, 8), "int8")):
        B = T.alloc_buffer((6, 10), "int8")
        for i0, i1 in T.grid(2, 2):
            for ax0, ax1, ax2, ax3 in T.grid(6, 6, 3, 3):
                with T.block("B"):
                    ax0_1 = T.axis.opaque(10, i0 * 4 + ax0)
                    ax1_1 = T.axis.spatial(10, i1 * 4 + ax1)
                    rv0, rv1 = T.axis.remap("RR", [ax2, ax3])
                    T.where((i0 < 1 or 2 <= ax0) and (i1 < 1 or 2 <= ax1))
                    T.reads(B[ax0_1 % 6, ax1_1], A[ax0_1 + rv0, ax1_1 + rv1])
                    T.writes(B[ax0_1 % 6, ax1_1])
                    B[ax0_1 % 6, ax1_1] = T.max(B[ax0_1 % 6, ax1_1], A[ax0_1 + rv0, ax1_1 + rv1])
            for ax0, ax1, ax2, ax3 in T.grid(4, 4, 3, 3):
                with T.block("C"):
                    ax0_1 = T.axis.opaque(8, i0 * 4 + ax0)
                    ax1_1 = T.axis.spatial(8, i1 * 4 + ax1)
                    rv0, rv1 = T.axis.remap("RR", [ax2, ax3])
                    T.reads(C[ax0_1, ax1_1], B[(ax0_1 + rv0) % 6, ax1_1 + rv1])
                    T.writes(C[ax0_1, ax1_1])
                    C[ax0_1, ax1_1] = T.max(C[ax0_1, ax1_1], B[(ax0_1 + rv0) % 6, ax1_1 + rv1])
    """)


STENCIL = parse("""
@T.prim_func
def main(A: T.Buffer((18, 8), "float32"), C: T.Buffer((16, 8), "float32")):
    B = T.alloc_buffer((18, 8))
    for i0 in range(4):
        for ax0, j in T.grid(6, 8):
            with T.block("B"):
                vi = T.axis.spatial(18, i0 * 4 + ax0)
                vj = T.axis.spatial(8, j)
                B[vi, vj] = A[vi, vj] * T.float32(2)
        for ax0, j in T.grid(4, 8):
            with T.block("C"):
                vi = T.axis.spatial(16, i0 * 4 + ax0)
                vj = T.axis.spatial(8, j)
                C[vi, vj] = B[vi, vj] + B[vi + 1, vj] + B[vi + 2, vj]
""")


def test_rolling_buffer_stencil_keeps_the_numbers():
    sch = Schedule(STENCIL)
    sch.rolling_buffer("B", 0)
    assert "B = T.alloc_buffer((6, 8))" in sch.mod.script()
    verify_trace_roundtrip(sch, STENCIL)
    a = np.random.default_rng(0).standard_normal((18, 8)).astype("float32")
    c = np.full((16, 8), np.nan, "float32")
    build(sch.mod)["main"](a, c)
    b = a * 2
    np.testing.assert_allclose(c, b[:16] + b[1:17] + b[2:18], rtol=1e-6)


UNTILED = parse("""
@T.prim_func
def main(A: T.Buffer((8,), "float32"), C: T.Buffer((8,), "float32")):
    B = T.alloc_buffer((8,))
    for i in range(8):
        with T.block("B"):
            vi = T.axis.remap("S", [i])
            B[vi] = A[vi]
    for i in range(8):
        with T.block("C"):
            vi = T.axis.remap("S", [i])
            C[vi] = B[vi]
""")

NO_OVERLAP = parse("""
@T.prim_func
def main(A: T.Buffer((16,), "float32"), C: T.Buffer((16,), "float32")):
    B = T.alloc_buffer((16,))
    for i0 in range(4):
        for ax0 in range(4):
            with T.block("B"):
                vi = T.axis.spatial(16, i0 * 4 + ax0)
                B[vi] = A[vi]
        for ax0 in range(4):
            with T.block("C"):
                vi = T.axis.spatial(16, i0 * 4 + ax0)
                C[vi] = B[vi]
""")

OUTPUT = parse("""
@T.prim_func
def main(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
    for i0 in range(4):
        for ax0 in range(4):
            with T.block("B"):
                vi = T.axis.spatial(16, i0 * 4 + ax0)
                B[vi] = A[vi]
""")

WAW = parse("""
@T.prim_func
def main(A: T.Buffer((16,), "float32"), C: T.Buffer((16,), "float32")):
    B = T.alloc_buffer((16,))
    for i in range(16):
        with T.block("B0"):
            vi = T.axis.remap("S", [i])
            B[vi] = A[vi]
    for i in range(16):
        with T.block("B"):
            vi = T.axis.remap("S", [i])
            B[vi] = B[vi] + T.float32(1)
    for i in range(16):
        with T.block("C"):
            vi = T.axis.remap("S", [i])
            C[vi] = B[vi]
""")


@pytest.mark.parametrize("func,error,text", [
    (UNTILED, X.RollingBufferInsertionError, "is not a for loop|should be tiled"),
    (NO_OVERLAP, X.RollingBufferMatchError, "rolling pattern"),
    (OUTPUT, errors.NotOutputBlockError, "intermediate buffer"),
    (WAW, X.RollingBufferDependencyError, "only RAW dependencies"),
])
def test_rolling_buffer_errors(func, error, text):
    sch = Schedule(func)
    before = sch.mod
    with pytest.raises(error, match=text):
        sch.rolling_buffer("B", 0)
    assert sch.mod is before
    verify_trace_roundtrip(sch, func)
