"""pad_einsum: before/after TVMScript (TVM's documented example), the padded kernel compiled and
compared with NumPy, one error case per precondition, trace round trip."""
import numpy as np
import pytest

from tirkit.compiler import build
from tirkit.schedule import Schedule
from tirkit.schedule.errors import NotSingleChildBlockError
from tirkit.schedule.primitives import cache_layout_errors as X
from tirkit.schedule.testing import verify_trace_roundtrip
from sched_util import check, parse

MATMUL = parse("""
@T.prim_func
def main(A: T.Buffer((127, 127), "float32"), B: T.Buffer((127, 127), "float32"),
         C: T.Buffer((127, 127), "float32")):
    for i0, i1, i2 in T.grid(127, 127, 127):
        with T.block("C_shared"):
            i, j, k = T.axis.remap("SSR", [i0, i1, i2])
            with T.init():
                C[i, j] = T.float32(0)
            C[i, j] = C[i, j] + A[i, k] * B[k, j]
""")


def test_pad_einsum_matmul():
    sch = Schedule(MATMUL)
    sch.pad_einsum("C_shared", [32, 32, 32])
    check(sch, MATMUL, """
    @T.prim_func
    def main(A: T.Buffer((127, 127), "float32"), B: T.Buffer((127, 127), "float32"),
             C: T.Buffer((127, 127), "float32")):
        A_pad = T.alloc_buffer((128, 128))
        B_pad = T.alloc_buffer((128, 128))
        C_pad = T.alloc_buffer((128, 128))
        for i0, i1 in T.grid(128, 128):
            with T.block("A_pad"):
                v0, v1 = T.axis.remap("SS", [i0, i1])
                T.reads(A[v0, v1])
                T.writes(A_pad[v0, v1])
                A_pad[v0, v1] = T.if_then_else(v0 < 127 and v1 < 127, A[v0, v1], T.float32(0))
        for i0, i1 in T.grid(128, 128):
            with T.block("B_pad"):
                v0, v1 = T.axis.remap("SS", [i0, i1])
                T.reads(B[v0, v1])
                T.writes(B_pad[v0, v1])
                B_pad[v0, v1] = T.if_then_else(v0 < 127 and v1 < 127, B[v0, v1], T.float32(0))
        for i0, i1, i2 in T.grid(128, 128, 128):
            with T.block("C_shared"):
                i, j, k = T.axis.remap("SSR", [i0, i1, i2])
                with T.init():
                    C_pad[i, j] = T.float32(0)
                C_pad[i, j] = C_pad[i, j] + A_pad[i, k] * B_pad[k, j]
        for i0, i1 in T.grid(127, 127):
            with T.block("C_pad"):
                v0, v1 = T.axis.remap("SS", [i0, i1])
                C[v0, v1] = C_pad[v0, v1]
    """)
    rng = np.random.default_rng(0)
    a, b = (rng.standard_normal((127, 127)).astype("float32") for _ in range(2))
    c = np.full((127, 127), np.nan, "float32")
    build(sch.mod)["main"](a, b, c)
    np.testing.assert_allclose(c, a @ b, rtol=1e-4, atol=1e-4)


def test_pad_einsum_only_pads_what_grows():
    sch = Schedule(MATMUL)
    sch.pad_einsum("C_shared", [1, 1, 4])
    text = sch.mod.script()
    assert "C_pad" not in text and "A_pad = T.alloc_buffer((127, 128))" in text
    verify_trace_roundtrip(sch, MATMUL)


SHIFTED = parse("""
@T.prim_func
def main(A: T.Buffer((16,), "float32"), B: T.Buffer((15,), "float32")):
    for i in range(15):
        with T.block("B"):
            vi = T.axis.remap("S", [i])
            B[vi] = A[vi + 1]
""")


@pytest.mark.parametrize("func,padding,error,text", [
    (MATMUL, [32, 32], X.InvalidPaddingError, "should be a list of 3 positive integers"),
    (MATMUL, [32, 0, 32], X.InvalidPaddingError, "Got \\[32, 0, 32\\]"),
    (SHIFTED, [4], X.NonEinsumError, 'block "B" not a computation of Einsum pattern'),
])
def test_pad_einsum_errors(func, padding, error, text):
    sch = Schedule(func)
    before = sch.mod
    block = "C_shared" if func is MATMUL else "B"
    with pytest.raises(error, match=text):
        sch.pad_einsum(block, padding)
    assert sch.mod is before
    verify_trace_roundtrip(sch, func)


SHARED_LOOP = parse("""
@T.prim_func
def main(A: T.Buffer((6, 6), "float32"), C: T.Buffer((6, 6), "float32")):
    B = T.alloc_buffer((6, 6))
    for i in range(6):
        for j in range(6):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = A[vi, vj] * T.float32(2)
        for j in range(6):
            with T.block("C"):
                vi, vj = T.axis.remap("SS", [i, j])
                C[vi, vj] = B[vi, vj] + T.float32(1)
""")


def test_pad_einsum_refuses_a_loop_nest_shared_with_another_block():
    """Found by the examples' wide schedule fuzzer (softmax: reindex twice, compute_at the
    reduction under the copy's loop, pad_einsum the copy by 8): the padded loop i also ran B
    past its 6 rows (A[6, 0] read, OUT OF THE BOUNDS with bound checks), and the padded copy
    B_pad was filled before B wrote B. TVM 0.27 builds the same broken kernel."""
    sch = Schedule(SHARED_LOOP)
    before = sch.mod
    with pytest.raises(NotSingleChildBlockError,
                       match="holds blocks 'B' besides block \"C\"; pad_einsum"):
        sch.pad_einsum("C", [8, 1])
    assert sch.mod is before
    with pytest.raises(NotSingleChildBlockError):  # only C's own j: B_pad would copy B
        sch.pad_einsum("C", [1, 4])                 # before B is written
    assert sch.mod is before
    sch.pad_einsum("C", [1, 1])  # nothing to pad, nothing rewritten: applies
    sch.pad_einsum("C", [3, 2])  # 6 is a multiple of both: applies
    assert sch.mod.script() == before.script()


EXPSUM = parse("""
@T.prim_func
def main(A: T.Buffer((4, 6), "float32"), M: T.Buffer((4,), "float32"),
         S: T.Buffer((4,), "float32")):
    for i, k in T.grid(4, 6):
        with T.block("S"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                S[vi] = T.float32(0)
            S[vi] = S[vi] + T.exp(A[vi, vk] - M[vi])
""")

ROWMAX = parse("""
@T.prim_func
def main(A: T.Buffer((4, 6), "float32"), M: T.Buffer((4,), "float32")):
    for i, k in T.grid(4, 6):
        with T.block("M"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                M[vi] = T.min_value("float32")
            M[vi] = T.max(M[vi], A[vi, vk])
""")


@pytest.mark.parametrize("func,block", [(EXPSUM, "S"), (ROWMAX, "M")])
def test_pad_einsum_refuses_a_padded_reduction_the_zeros_change(func, block):
    """Found by the wide examples' fuzzer (softmax.py: pad_einsum(expsum, [1, 8]): every output
    off by up to 16%): the padded reduction iter adds exp(0 - M[i]) per padded k, and a max
    over the padding's zeros is 0 for a row of negatives. TVM 0.27 pads both (same IR) and the
    numbers are wrong; padding only the spatial iter is still fine."""
    sch = Schedule(func)
    before = sch.mod
    with pytest.raises(X.NonEinsumError, match=f"its iter vk is padded but does not index "
                       f"{block}, and an update over the padding"):
        sch.pad_einsum(block, [1, 8])
    assert sch.mod is before
    sch.pad_einsum(block, [8, 1])
    a = np.random.default_rng(0).uniform(-2, -1, (4, 6)).astype("float32")
    m = a.max(1)
    out = np.full(4, np.nan, "float32")
    f = build(sch.mod, config={"tir.instrument_bound_checkers": True})["main"]
    if func is EXPSUM:
        f(a, m, out)
        np.testing.assert_allclose(out, np.exp(a - m[:, None]).sum(1), rtol=1e-5)
    else:
        f(a, out)
        np.testing.assert_allclose(out, m)


ROWS = parse("""
@T.prim_func
def main(A: T.Buffer((6, 10), "float32"), D: T.Buffer((6, 10), "float32")):
    for i, j in T.grid(6, 10):
        with T.block("D"):
            vi, vj = T.axis.remap("SS", [i, j])
            D[vi, vj] = A[vi, vj] * T.float32(2)
""")


def test_pad_einsum_of_a_partition_is_not_trivial_binding():
    """Found by the wide fuzzer (fuzz_kernels.py's two_consumers: loop_partition of the inner
    loop by [5, None], then pad_einsum of the second part, --hypothesis-seed=9): the part's loop
    in range(5, 10) became range(5, 17) and the copy back wrote the rows and columns that
    nest never computed (NaNs in the output)."""
    sch = Schedule(ROWS)
    sch.loop_partition(sch.get_loops("D")[1], [5, None])
    before = sch.mod
    with pytest.raises(X.BlockHasNontrivialBindingError,
                       match='block "D_j1": pad_einsum needs each iter bound to a loop of its '
                       "own over its whole domain from 0; vi"):
        sch.pad_einsum("D_j1", [1, 4])
    assert sch.mod is before
