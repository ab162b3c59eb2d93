"""blockize of a list of blocks (TVM's ``BlockizeBlocks``): before/after (TVM's
test_blockize_blocks case), an error case per precondition (``NotChildError`` where TVM stops at
an internal check, ``SubspaceNotDivisibleError``), the numbers kept, the trace round trip."""
import numpy as np
import pytest

from tirkit.schedule import Schedule, errors

from tirkit.schedule.primitives.cache_layout_errors import BlockizeError

from sched_util import check, parse

BLOCKS = parse("""
@T.prim_func
def main(A: T.Buffer((128, 128), "float32"), B: T.Buffer((128, 128), "float32")):
    for m in range(6):
        for i, j in T.grid(3, 1):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = A[vi, vj] * T.float32(2)
        for i, j in T.grid(128, 64):
            with T.block("C"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj + 64] = A[vi, vj + 64] * T.float32(3)
""")


def test_blockize_blocks():
    sch = Schedule(BLOCKS)
    outer = sch.blockize([sch.get_block("B"), sch.get_block("C")])
    assert sch.get(outer).name_hint == "outer_B_C_"
    check(sch, BLOCKS, """
    @T.prim_func
    def main(A: T.Buffer((128, 128), "float32"), B: T.Buffer((128, 128), "float32")):
        for m in range(6):
            with T.block("outer_B_C_"):
                vi_o = T.axis.spatial(1, 0)
                vj_o = T.axis.spatial(1, 0)
                T.reads(A[0:128, 0:128])
                T.writes(B[0:128, 0:128])
                for i, j in T.grid(3, 1):
                    with T.block("B"):
                        vi_i = T.axis.spatial(3, i)
                        T.reads(A[vi_i, 0])
                        T.writes(B[vi_i, 0])
                        B[vi_i, 0] = A[vi_i, 0] * T.float32(2)
                for i, j in T.grid(128, 64):
                    with T.block("C"):
                        vi_i, vj_i = T.axis.remap("SS", [i, j])
                        T.reads(A[vi_i, vj_i + 64])
                        T.writes(B[vi_i, vj_i + 64])
                        B[vi_i, vj_i + 64] = A[vi_i, vj_i + 64] * T.float32(3)
    """)
    # the old block RVs still name the (rewritten) inner blocks
    assert [sch.get(b).name_hint for b in sch.get_child_blocks(outer)] == ["B", "C"]


def test_blockize_blocks_keeps_the_numbers():
    from tirkit.compiler import build
    sch = Schedule(BLOCKS)
    sch.blockize([sch.get_block("B"), sch.get_block("C")])
    a = np.random.default_rng(1).random((128, 128), dtype=np.float32)
    want, got = np.zeros_like(a), np.zeros_like(a)
    build(BLOCKS)(a, want)
    build(sch.mod)(a, got)
    np.testing.assert_allclose(got, want, rtol=1e-6)


THREE = parse("""
@T.prim_func
def main(A: T.Buffer((16,), "float32"), D: T.Buffer((16,), "float32")):
    B = T.alloc_buffer((16,))
    C = T.alloc_buffer((16,))
    for i in range(16):
        with T.block("B"):
            vi = T.axis.spatial(16, i)
            B[vi] = A[vi]
    for i in range(16):
        with T.block("C"):
            vi = T.axis.spatial(16, i)
            C[vi] = B[vi]
    for i in range(16):
        with T.block("D"):
            vi = T.axis.spatial(16, i)
            D[vi] = C[vi]
""")

NESTED = parse("""
@T.prim_func
def main(A: T.Buffer((16,), "float32"), C: T.Buffer((16,), "float32")):
    with T.block("outer"):
        T.reads(A[0:16])
        T.writes(C[0:16])
        for i in range(16):
            with T.block("C"):
                vi = T.axis.spatial(16, i)
                C[vi] = A[vi]
""")

SHARED_LOOP = parse("""
@T.prim_func
def main(A: T.Buffer((16,), "float32"), C: T.Buffer((16,), "float32"),
         D: T.Buffer((16,), "float32")):
    for i in range(16):
        with T.block("C"):
            vi = T.axis.spatial(16, i)
            C[vi] = A[vi]
        with T.block("D"):
            vi = T.axis.spatial(16, i)
            D[vi] = A[vi]
    for i in range(16):
        with T.block("E"):
            vi = T.axis.spatial(16, i)
            D[vi] = D[vi] + C[vi]
""")


def _unchanged(sch, run, error, *names):
    mod, n = sch.mod, len(sch.trace.insts)
    with pytest.raises(error) as info:
        run()
    for name in names:
        assert name in str(info.value), str(info.value)
    assert sch.mod is mod and len(sch.trace.insts) == n


def test_blocks_that_are_not_consecutive():
    sch = Schedule(THREE)
    b, d = sch.get_block("B"), sch.get_block("D")
    _unchanged(sch, lambda: sch.blockize([b, d]), errors.NotChildError, 'block "root"',
               "consecutive", "[0, 2]")
    sch.blockize([sch.get_block("C"), d])     # consecutive ones are fine
    assert [sch.get(x).name_hint for x in sch.get_child_blocks(sch.get_block("root"))] == \
        ["B", "outer_C_D_"]


def test_a_block_given_twice_or_nested():
    sch = Schedule(THREE)
    b = sch.get_block("B")
    _unchanged(sch, lambda: sch.blockize([b, b]), errors.NotChildError, 'block "B"', "twice")
    sch = Schedule(NESTED)
    outer, c = sch.get_block("outer"), sch.get_block("C")
    _unchanged(sch, lambda: sch.blockize([outer, c]), errors.NotChildError, 'block "outer"',
               "must not be nested")


def test_a_block_left_out_of_a_shared_subtree():
    sch = Schedule(SHARED_LOOP)
    c, e = sch.get_block("C"), sch.get_block("E")
    # C's loop also holds D: putting that loop under the new block would swallow D
    _unchanged(sch, lambda: sch.blockize([c, e]), errors.NotChildError, 'block "D"',
               'block "root"', "not one of them")


def test_a_binding_over_a_loop_above_the_common_ancestor():
    sch = Schedule(SHARED_LOOP)
    c, d = sch.get_block("C"), sch.get_block("D")
    _unchanged(sch, lambda: sch.blockize([c, d]), BlockizeError, 'block "C"', "vi = i")
    assert BlockizeError.__name__ == "SubspaceNotDivisibleError"
