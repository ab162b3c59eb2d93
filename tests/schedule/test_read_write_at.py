"""read_at and write_at: before/after TVMScript, compiled and compared with NumPy, error cases,
trace round trip."""
import numpy as np
import pytest

from tirkit.compiler import build
from tirkit.schedule import Schedule, errors
from tirkit.schedule.testing import verify_trace_roundtrip
from sched_util import check, parse

TILED = parse("""
@T.prim_func
def main(A: T.Buffer((64, 64), "float32"), B: T.Buffer((64, 64), "float32"),
         C: T.Buffer((64, 64), "float32")):
    for i0, j0 in T.grid(4, 4):
        for k, i1, j1 in T.grid(64, 16, 16):
            with T.block("C"):
                vi = T.axis.spatial(64, i0 * 16 + i1)
                vj = T.axis.spatial(64, j0 * 16 + j1)
                vk = T.axis.reduce(64, k)
                with T.init():
                    C[vi, vj] = T.float32(0)
                C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
""")


def test_read_at_and_write_at():
    sch = Schedule(TILED)
    _, j0, _, _, _ = sch.get_loops("C")
    copy_in = sch.read_at(j0, "C", 0, "shared")
    copy_out = sch.write_at(j0, "C", 0, "local")
    assert sch.get(copy_in).name_hint == "A_shared" and sch.get(copy_out).name_hint == "C_local"
    check(sch, TILED, """
    @T.prim_func
    def main(A: T.Buffer((64, 64), "float32"), B: T.Buffer((64, 64), "float32"),
             C: T.Buffer((64, 64), "float32")):
        A_shared = T.alloc_buffer((64, 64), scope="shared")
        C_local = T.alloc_buffer((64, 64), scope="local")
        for i0, j0 in T.grid(4, 4):
            with T.block("A_shared"):
                v0 = T.axis.spatial(4, i0)
                T.reads(A[v0 * 16:v0 * 16 + 16, 0:64])
                T.writes(A_shared[v0 * 16:v0 * 16 + 16, 0:64])
                T.block_attr({"auto_copy": 1})
                for ax0, ax1 in T.grid(16, 64):
                    A_shared[v0 * 16 + ax0, ax1] = A[v0 * 16 + ax0, ax1]
            for k, i1, j1 in T.grid(64, 16, 16):
                with T.block("C"):
                    vi = T.axis.spatial(64, i0 * 16 + i1)
                    vj = T.axis.spatial(64, j0 * 16 + j1)
                    vk = T.axis.reduce(64, k)
                    T.reads(A_shared[vi, vk], B[vk, vj])
                    T.writes(C_local[vi, vj])
                    with T.init():
                        C_local[vi, vj] = T.float32(0)
                    C_local[vi, vj] = C_local[vi, vj] + A_shared[vi, vk] * B[vk, vj]
            with T.block("C_local"):
                v0, v1 = T.axis.remap("SS", [i0, j0])
                T.reads(C_local[v0 * 16:v0 * 16 + 16, v1 * 16:v1 * 16 + 16])
                T.writes(C[v0 * 16:v0 * 16 + 16, v1 * 16:v1 * 16 + 16])
                T.block_attr({"auto_copy": 1})
                for ax0, ax1 in T.grid(16, 16):
                    C[v0 * 16 + ax0, v1 * 16 + ax1] = C_local[v0 * 16 + ax0, v1 * 16 + ax1]
    """)
    rng = np.random.default_rng(0)
    a, b = (rng.standard_normal((64, 64)).astype("float32") for _ in range(2))
    c = np.full((64, 64), np.nan, "float32")
    build(sch.mod)["main"](a, b, c)
    np.testing.assert_allclose(c, a @ b, rtol=1e-4, atol=1e-4)


TWO_NESTS = parse("""
@T.prim_func
def main(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
    for i in range(8):
        with T.block("A"):
            vi = T.axis.remap("S", [i])
            A[vi] = T.float32(1)
    for i in range(8):
        with T.block("B"):
            vi = T.axis.remap("S", [i])
            B[vi] = A[vi]
""")


@pytest.mark.parametrize("call,error,text", [
    (lambda s: s.read_at(s.get_loops("A")[0], "B", 0, "shared"), errors.LoopPositionError,
     "not above the block"),
    (lambda s: s.write_at(s.get_loops("B")[0], "B", 3, "local"),
     errors.BufferIndexOutOfRangeError, "write buffer index 3"),
    (lambda s: s.read_at(s.get_loops("B")[0], "B", 0, "nowhere"), errors.InvalidScopeError,
     "'nowhere' is invalid"),
])
def test_read_write_at_errors(call, error, text):
    sch = Schedule(TWO_NESTS)
    before = sch.mod
    with pytest.raises(error, match=text):
        call(sch)
    assert sch.mod is before
    verify_trace_roundtrip(sch, TWO_NESTS)
