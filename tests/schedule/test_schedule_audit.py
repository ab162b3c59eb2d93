"""Acceptance audit of issue 11 ("for every primitive: before/after cases, an error case per
precondition, the trace round trip"): the primitives TVM gives no precondition beyond the kind of
random variable they take (getters, unroll, annotate, add_unit_loop, sample_compute_location)
get that error case here -- a BlockRV where a loop is expected is ``NotLoopError``, a LoopRV
where a block is expected ``NotBlockError``, an RV of a removed block ``RVExpiredError`` -- and
add_unit_loop its block form and its one real precondition (not above the root block)."""
import pytest

from tirkit.schedule import Schedule, errors

from sched_util import check, parse

TWO_STAGE = parse("""
@T.prim_func
def main(A: T.Buffer((16, 16), "float32"), C: T.Buffer((16, 16), "float32")):
    B = T.alloc_buffer((16, 16))
    for i, j in T.grid(16, 16):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] * T.float32(2)
    for i, j in T.grid(16, 16):
        with T.block("C"):
            vi, vj = T.axis.remap("SS", [i, j])
            C[vi, vj] = B[vi, vj] + T.float32(1)
""")


def _unchanged(sch, run, error, *names):
    mod, n = sch.mod, len(sch.trace.insts)
    with pytest.raises(error) as info:
        run()
    for name in names:
        assert name in str(info.value), str(info.value)
    assert sch.mod is mod and len(sch.trace.insts) == n
    return info.value


WRONG_KIND = [
    ("unroll", lambda s, b, i: s.unroll(b), errors.NotLoopError, 'block "B"'),
    ("parallel", lambda s, b, i: s.parallel(b), errors.NotLoopError, 'block "B"'),
    ("vectorize", lambda s, b, i: s.vectorize(b), errors.NotLoopError, 'block "B"'),
    ("bind", lambda s, b, i: s.bind(b, "threadIdx.x"), errors.NotLoopError, 'block "B"'),
    ("split", lambda s, b, i: s.split(b, [4, 4]), errors.NotLoopError, 'block "B"'),
    ("fuse", lambda s, b, i: s.fuse(i, b), errors.NotLoopError, 'block "B"'),
    ("reorder", lambda s, b, i: s.reorder(b, i), errors.NotLoopError, 'block "B"'),
    ("get_loops", lambda s, b, i: s.get_loops(i), errors.NotBlockError, 'loop "i"'),
    ("get_producers", lambda s, b, i: s.get_producers(i), errors.NotBlockError, 'loop "i"'),
    ("get_consumers", lambda s, b, i: s.get_consumers(i), errors.NotBlockError, 'loop "i"'),
    ("get_output_blocks", lambda s, b, i: s.get_output_blocks(i), errors.NotBlockError,
     'loop "i"'),
    ("sample_compute_location", lambda s, b, i: s.sample_compute_location(i),
     errors.NotBlockError, 'loop "i"'),
    ("compute_at", lambda s, b, i: s.compute_at(i, i), errors.NotBlockError, 'loop "i"'),
    ("cache_read", lambda s, b, i: s.cache_read(i, 0, "local"), errors.NotBlockError,
     'loop "i"'),
    ("decompose_reduction", lambda s, b, i: s.decompose_reduction(b, b), errors.NotLoopError,
     'block "B"'),
]


@pytest.mark.parametrize("name,run,error,named", WRONG_KIND, ids=[w[0] for w in WRONG_KIND])
def test_a_random_variable_of_the_wrong_kind(name, run, error, named):
    del name
    sch = Schedule(TWO_STAGE)
    b = sch.get_block("B")
    i, _ = sch.get_loops("B")
    e = _unchanged(sch, lambda: run(sch, b, i), error, named)
    assert isinstance(e, errors.InvalidArgumentError)


@pytest.mark.parametrize("run", [
    lambda s, b: s.annotate(b, "k", 1),
    lambda s, b: s.unannotate(b, "k"),
    lambda s, b: s.get_child_blocks(b),
    lambda s, b: s.add_unit_loop(b),
    lambda s, b: s.get_loops(b),
], ids=["annotate", "unannotate", "get_child_blocks", "add_unit_loop", "get_loops"])
def test_a_random_variable_of_a_removed_block(run):
    sch = Schedule(TWO_STAGE)
    b = sch.get_block("B")
    sch.compute_inline(b)
    _unchanged(sch, lambda: run(sch, b), errors.RVExpiredError, "no longer exists")


def test_add_unit_loop_above_a_block():
    sch = Schedule(TWO_STAGE)
    u = sch.add_unit_loop(sch.get_block("C"))
    assert sch.get(u).extent.value == 1
    check(sch, TWO_STAGE, """
    @T.prim_func
    def main(A: T.Buffer((16, 16), "float32"), C: T.Buffer((16, 16), "float32")):
        B = T.alloc_buffer((16, 16))
        for i, j in T.grid(16, 16):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = A[vi, vj] * T.float32(2)
        for i, j, u in T.grid(16, 16, 1):
            with T.block("C"):
                vi, vj = T.axis.remap("SS", [i, j])
                C[vi, vj] = B[vi, vj] + T.float32(1)
    """)


def test_add_unit_loop_above_the_root_block_is_refused():
    sch = Schedule(TWO_STAGE)
    root = sch.get_block("root")
    _unchanged(sch, lambda: sch.add_unit_loop(root), errors.InvalidArgumentError,
               'block "root"', "root block")
