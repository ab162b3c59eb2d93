"""loop_partition's wrapper blocks (``*_common``, ``*_partition``) carry their blocks' read and
write regions, so the primitives that place stages by block regions see the blocks inside them.
With empty regions (TVM's, and tirkit's before this test) cache_read put a copy before the
wrapper that computes the buffer (NaN in softmax, found by the bound-checked fuzzer of
test_examples_differential.py), compute_at / reverse_compute_at missed a hidden consumer or
producer and computed from uninitialised buffers. End to end: the scheduled kernel is built
and must give the unscheduled kernel's numbers, or the primitive must refuse."""
import numpy as np
import pytest

from tirkit.compiler import build
from tirkit.compiler.transform import as_module
from tirkit.schedule import Schedule, ScheduleError, errors
from tirkit.schedule.testing import verify_trace_roundtrip

from sched_util import parse  # tests/schedule is on sys.path (rootdir-less test dir)

SOFTMAX = parse("""
@T.prim_func
def main(A: T.Buffer((8, 16), "float32"), B: T.Buffer((8, 16), "float32")):
    T.func_attr({"tir.noalias": True})
    maxelem = T.alloc_buffer((8,), "float32")
    expsum = T.alloc_buffer((8,), "float32")
    for i in T.parallel(8):
        for k in range(16):
            with T.block("maxelem"):
                vi, vk = T.axis.remap("SR", [i, k])
                with T.init():
                    maxelem[vi] = T.min_value("float32")
                maxelem[vi] = T.max(maxelem[vi], A[vi, vk])
    for i in T.parallel(8):
        for k in range(16):
            with T.block("expsum"):
                vi, vk = T.axis.remap("SR", [i, k])
                with T.init():
                    expsum[vi] = T.float32(0)
                expsum[vi] = expsum[vi] + T.exp(A[vi, vk] - maxelem[vi])
    for i in T.parallel(8):
        for j in range(16):
            with T.block("norm"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = T.exp(A[vi, vj] - maxelem[vi]) / expsum[vi]
""")


def _run(mod):
    """B after a call on fixed random A."""
    a = np.random.default_rng(0).uniform(-1, 1, (8, 16)).astype("float32")
    b = np.zeros((8, 16), "float32")
    build(as_module(mod), opt_level=1)["main"](a, b)
    return b


def _rows_then_cache_read(sch):
    # the fuzzer's case: the copy of maxelem must come after maxelem_i_common (softmax does not
    # change with the row max, so a copy of zeroed memory may still give the numbers: the
    # order is checked too)
    sch.loop_partition(sch.get_loops("maxelem")[0], [3, None])
    sch.cache_read(sch.get_block("expsum"), 1, "global")
    order = [sch.get(b).name_hint for b in sch.get_child_blocks(sch.get_block("root"))]
    assert order.index("maxelem_i_common") < order.index("maxelem_global"), order


def _expsum_rows_then_cache_read(sch):
    # the copy of expsum before expsum_i_common divides by what the buffer held
    sch.loop_partition(sch.get_loops("expsum")[0], [3, None])
    sch.cache_read(sch.get_block("norm"), 2, "global")


def _inner_then_cache_read(sch):
    # expsum_k_common sits under loop i: its regions name i (expsum[i])
    sch.loop_partition(sch.get_loops("expsum")[1], [5, None])
    sch.cache_read(sch.get_block("norm"), 1, "global")


def _inner_then_reverse_compute_at(sch):
    # expsum must cover the row maxelem_k_common writes
    sch.loop_partition(sch.get_loops("maxelem")[1], [5, None])
    sch.reverse_compute_at(sch.get_block("expsum"), sch.get_loops("maxelem_k_common")[0])


def _inner_then_compute_at(sch):
    # expsum must produce the row norm_j_common reads
    sch.loop_partition(sch.get_loops("norm")[1], [5, None])
    sch.compute_at(sch.get_block("expsum"), sch.get_loops("norm_j_common")[0])


@pytest.mark.parametrize("schedule", [_rows_then_cache_read, _expsum_rows_then_cache_read,
                                      _inner_then_cache_read,
                                      _inner_then_reverse_compute_at, _inner_then_compute_at])
def test_stages_placed_after_loop_partition_keep_the_numbers(schedule):
    want = _run(SOFTMAX)
    sch = Schedule(SOFTMAX)
    schedule(sch)
    np.testing.assert_allclose(_run(sch.mod["main"]), want, rtol=1e-5, atol=1e-6)
    verify_trace_roundtrip(sch, SOFTMAX)


def test_wrapper_regions_name_the_loops_above_them():
    sch = Schedule(SOFTMAX)
    sch.loop_partition(sch.get_loops("expsum")[1], [5, None])
    text = sch.mod.script()
    for line in ("T.reads(A[i, 0:16], maxelem[i])", "T.writes(expsum[i])",  # expsum_k_common
                 "T.reads(A[i, 0:5], maxelem[i])", "T.reads(A[i, 5:16], maxelem[i])"):
        assert line in text, line
    common = sch.get(sch.get_block("expsum_k_common"))
    assert [r.buffer.name for r in common.reads] == ["A", "maxelem"]


@pytest.mark.parametrize("move, block, loop_of, hidden", [
    ("compute_at", "maxelem", "norm", "consumer"),
    ("reverse_compute_at", "norm", "maxelem", "producer"),
])
def test_compute_location_sees_the_stage_inside_the_wrappers(move, block, loop_of, hidden):
    # expsum (a consumer of maxelem, a producer of norm) is hidden in expsum_i_common: with
    # empty wrapper regions the move was accepted and the kernel read uninitialised buffers
    sch = Schedule(SOFTMAX)
    sch.loop_partition(sch.get_loops("expsum")[0], [3, None])
    before = sch.mod
    with pytest.raises(errors.NotAllRequiredBlocksAreVisitedError,
                       match=f'its {hidden} block "expsum_i_common" is not under the loop'):
        getattr(sch, move)(sch.get_block(block), sch.get_loops(loop_of)[0])
    assert sch.mod is before
    assert issubclass(errors.NotAllRequiredBlocksAreVisitedError, ScheduleError)


def test_partitioned_loops_are_serial_as_in_tvm_and_can_be_made_parallel_again():
    # TVM 0.27's LoopPartition builds ForKind::kSerial loops: a T.parallel loop comes back serial
    sch = Schedule(SOFTMAX)
    parts = sch.loop_partition(sch.get_loops("maxelem")[0], [3, None])
    assert [sch.get(p).kind.name for p in parts] == ["SERIAL", "SERIAL"]
    for p in parts:
        sch.parallel(p)
    assert [sch.get(p).kind.name for p in parts] == ["PARALLEL", "PARALLEL"]
    np.testing.assert_allclose(_run(sch.mod["main"]), _run(SOFTMAX), rtol=1e-5, atol=1e-6)
    verify_trace_roundtrip(sch, SOFTMAX)


def test_partition_of_a_loop_above_an_earlier_partition():
    # the loop holds norm_j_common and the blocks nested in it: each partition needs its own
    # iter vars for the nested blocks too (they were shared: "vi is defined more than once")
    sch = Schedule(SOFTMAX)
    sch.loop_partition(sch.get_loops("norm")[1], [5, None])
    sch.loop_partition(sch.get_loops("norm_j_common")[0], [2, None])
    common = sch.get_block("norm_j_common_i_common")
    names = [sch.get(b).name_hint for b in sch.get_child_blocks(common)]
    assert names == ["norm_j_common_i0_partition", "norm_j_common_i1_partition"]
    sch.get_block("norm_j1_partition_i1")  # nested blocks are renamed per partition as well
    assert [r.buffer.name for r in sch.get(common).reads] == ["A", "maxelem", "expsum"]
    sch.cache_read(common, 2, "global")
    np.testing.assert_allclose(_run(sch.mod["main"]), _run(SOFTMAX), rtol=1e-5, atol=1e-6)
    verify_trace_roundtrip(sch, SOFTMAX)


ROW = parse("""
@T.prim_func
def main(A: T.Buffer((10,), "float32"), B: T.Buffer((10,), "float32")):
    for j in range(10):
        with T.block("B"):
            vj = T.axis.spatial(10, j)
            B[vj] = A[vj] * T.float32(2)
""")


def test_partition_of_a_loop_not_starting_at_zero_keeps_its_range():
    """Found by the wide fuzzer (fuzz_kernels.py's two_consumers: loop_partition by [5, None],
    then again of the second part's loop j1 in range(5, 10); SCHED_FUZZ_ONLY=...
    --hypothesis-seed=8): the parts were counted from 0, so the second partition ran j in
    range(5) and half of the outputs were never written."""
    sch = Schedule(ROW)
    _, second = sch.loop_partition(sch.get_loops("B")[0], [5, None])
    parts = sch.loop_partition(second, [3, None])
    assert [(int(sch.get(p).min), int(sch.get(p).min) + int(sch.get(p).extent))
            for p in parts] == [(5, 8), (8, 10)]
    verify_trace_roundtrip(sch, ROW)
    a = np.arange(10, dtype="float32")
    b = np.zeros(10, "float32")
    build(sch.mod)["main"](a, b)
    np.testing.assert_allclose(b, a * 2)
