"""Schedule core: state, srefs, RVs, getters, copy/fork_seed/work_on, errors leave the schedule
unchanged, trace printing and JSON."""
import json

import pytest

from tirkit.ir import IRModule, structural_equal
from tirkit.schedule import (BlockRV, LoopRV, Schedule, ScheduleError, StmtSRef, Trace,
                             errors)
from tirkit.tir import Block, For

from sched_util import parse  # tests/schedule is on sys.path (rootdir-less test dir)

TWO_STAGE = """
@T.prim_func
def main(A: T.Buffer((128, 128), "float32"), C: T.Buffer((128, 128), "float32")):
    B = T.alloc_buffer((128, 128))
    for i, j in T.grid(128, 128):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] * T.float32(2)
    for i, j in T.grid(128, 128):
        with T.block("C"):
            vi, vj = T.axis.remap("SS", [i, j])
            C[vi, vj] = B[vi, vj] + T.float32(1)
"""


@pytest.fixture(name="func")
def fixture_func():
    return parse(TWO_STAGE)


def test_getters(func):
    sch = Schedule(func)
    b, c = sch.get_block("B"), sch.get_block("C")
    assert isinstance(b, BlockRV) and isinstance(sch.get(b), Block)
    assert sch.get(b).name_hint == "B"
    loops = sch.get_loops(c)
    assert [sch.get(lp).loop_var.name_hint for lp in loops] == ["i", "j"]
    assert all(isinstance(lp, LoopRV) and isinstance(sch.get(lp), For) for lp in loops)
    root = sch.get_block("root")
    assert [sch.get(x).name_hint for x in sch.get_child_blocks(root)] == ["B", "C"]
    assert [sch.get(x).name_hint for x in sch.get_child_blocks(loops[0])] == ["C"]
    assert [sch.get(x).name_hint for x in sch.get_producers(c)] == ["B"]
    assert [sch.get(x).name_hint for x in sch.get_consumers(b)] == ["C"]
    assert sch.get_producers(b) == [] and sch.get_consumers(c) == []
    assert [sch.get(x).name_hint for x in sch.get_output_blocks(root)] == ["C"]
    sref = sch.get_sref(c)
    assert isinstance(sref, StmtSRef) and sref.stmt is sch.get(c)
    assert sref.parent.stmt is sch.get(loops[1])
    assert sch.get_sref(sch.get(c)) is sref


def test_get_block_errors(func):
    sch = Schedule(func)
    with pytest.raises(ScheduleError, match='Cannot find a block with the name "X"'):
        sch.get_block("X")
    assert sch.trace.insts == []


def test_state_flags_and_scope(func):
    sch = Schedule(func)
    c = sch.get_sref(sch.get_block("C"))
    root = sch.get_sref(sch.get_block("root"))
    info = sch.state.block_info(c)
    assert info["affine_binding"] and info["region_cover"]
    assert sch.state.block_info(root)["stage_pipeline"]
    scope = sch.state.get_block_scope(root)
    deps = scope.get_deps_by_dst(c)
    assert [(d.src.stmt.name_hint, d.kind.name) for d in deps] == [("B", "RAW")]


def test_region_cover_false_when_consumer_reads_more():
    func = parse("""
    @T.prim_func
    def main(A: T.Buffer((128,), "float32"), C: T.Buffer((128,), "float32")):
        B = T.alloc_buffer((128,))
        for i in range(64):
            with T.block("B"):
                vi = T.axis.spatial(128, i)
                B[vi] = A[vi]
        for i in range(128):
            with T.block("C"):
                vi = T.axis.spatial(128, i)
                C[vi] = B[vi]
    """)
    sch = Schedule(func)
    assert not sch.state.block_info(sch.get_sref(sch.get_block("C")))["region_cover"]
    assert not sch.state.block_info(sch.get_sref(sch.get_block("root")))["stage_pipeline"]


def _cover(producer_pred: str, consumer_pred: str, consumer_extent: int = 112) -> bool:
    func = parse(f"""
    @T.prim_func
    def main(A: T.Buffer((100,), "float32"), C: T.Buffer((100,), "float32")):
        B = T.alloc_buffer((100,))
        for i in range(112):
            with T.block("B"):
                vi = T.axis.spatial(100, i)
                T.where({producer_pred})
                B[vi] = A[vi]
        for i in range({consumer_extent}):
            with T.block("C"):
                vi = T.axis.spatial(100, i)
                T.where({consumer_pred})
                C[vi] = B[vi]
    """)
    sch = Schedule(func)
    return sch.state.block_info(sch.get_sref(sch.get_block("C")))["region_cover"]


def test_region_cover_takes_the_block_predicates_into_account():
    # TVM's AnalyzeRegionUpperBound/LowerBound: the predicate narrows both regions, and both are
    # intersected with the buffer's shape before they are compared
    assert _cover("i < 100", "i < 100")
    assert _cover("i < 100", "i < 100", consumer_extent=100)
    assert _cover("i < 100", "i + 0 < 200")          # the buffer bounds the consumer
    assert not _cover("i < 50", "i < 100")           # the producer writes only B[0:50]
    assert _cover("i < 50", "i < 50")
    assert not _cover("i < 50", "i + 1 < 52")        # reads B[0:51]
    assert not _cover("i >= 10", "i < 100")          # B[0:10] is never written
    assert _cover("i >= 10", "10 <= i and i < 100")
    assert not _cover("i % 2 == 0", "i < 100")        # unknown predicate: produces nothing known


def test_sref_follows_loop_through_replacement(func):
    sch = Schedule(func)
    c = sch.get_block("C")
    i, j = sch.get_loops(c)
    sref_i = sch.get_sref(i)
    sch.split(j, [None, 16])
    assert sch.get_sref(i) is sref_i and sch.get(i).loop_var.name_hint == "i"
    assert sch.get(c).name_hint == "C"
    with pytest.raises(ScheduleError, match="no longer exists"):
        sch.get(j)


def test_error_leaves_schedule_unchanged(func):
    sch = Schedule(func)
    c = sch.get_block("C")
    i, j = sch.get_loops(c)
    before_mod, before_trace = sch.mod, list(sch.trace.insts)
    with pytest.raises(errors.NotOnlyChildError) as info:
        sch.fuse(sch.get_loops("B")[0], j)
    assert sch.mod is before_mod
    assert len(sch.trace.insts) == len(before_trace) + 2  # get_block("B") + get_loops recorded
    assert 'loop "j"' in str(info.value)
    sch.split(j, [4, None])   # still usable


def test_copy_and_seed(func):
    sch = Schedule(func, seed=42)
    c = sch.get_block("C")
    other = sch.copy()
    i, _ = other.get_loops(c)
    other.split(i, [2, None])
    assert structural_equal(sch.mod, IRModule({"main": func}))
    assert not structural_equal(other.mod, sch.mod)
    a, b = Schedule(func, seed=7), Schedule(func, seed=7)
    assert a.fork_seed() == b.fork_seed()


def test_work_on_and_modules(func):
    mod = IRModule({"f": func, "g": func})
    sch = Schedule(mod)
    with pytest.raises(ScheduleError, match="several functions"):
        sch.get_block("C")
    sch.work_on("g")
    assert sch.get(sch.get_block("C")).name_hint == "C"
    assert sch.get(sch.get_block("C", func_name="f")).name_hint == "C"
    with pytest.raises(ValueError, match="no PrimFunc named 'h'"):
        sch.work_on("h")


def test_constructor_arguments(func):
    with pytest.raises(ValueError, match="error_render_level"):
        Schedule(func, error_render_level="loud")
    with pytest.raises(TypeError, match="PrimFunc or IRModule"):
        Schedule(3)


def test_error_render_levels(func):
    for level, expect in (("detail", 'loop "j"'), ("fast", "ScheduleError: "),
                          ("none", "not rendered")):
        sch = Schedule(func, error_render_level=level)
        j = sch.get_loops("C")[1]
        with pytest.raises(ScheduleError) as info:
            sch.fuse(sch.get_loops("B")[0], j)
        assert expect in str(info.value)


def test_error_span_points_at_the_loop_in_the_source():
    func = parse(TWO_STAGE)
    sch = Schedule(func)
    i, j = sch.get_loops("C")
    with pytest.raises(ScheduleError) as info:
        sch.fuse(j, i)
    span = info.value.span
    assert span is not None and span.source_name == "case.py"


def test_trace_python_and_json(func):
    sch = Schedule(func)
    c = sch.get_block("C")
    i, j = sch.get_loops(c)
    sch.split(j, [None, 16])
    lines = sch.trace.as_python()
    assert lines[0] == 'b0 = sch.get_block(name="C", func_name="main")'
    assert lines[1] == "l1, l2 = sch.get_loops(block=b0)"
    assert lines[2] == ("l3, l4 = sch.split(loop=l2, factors=[None, 16], "
                        "preserve_unit_iters=True, disable_predication=False)")
    data = sch.trace.as_json()
    assert data[0][2] == ["Split", ["l2", ["None", 16]], [True, False], ["l3", "l4"]]
    again = Trace.from_json(json.dumps(data))
    assert again.as_json() == data
    with pytest.raises(ValueError, match="unknown instruction kind"):
        Trace.from_json([[["Frobnicate", [], [], []]], []])


def test_show_prints_module_and_trace(func, capsys):
    sch = Schedule(func)
    sch.get_loops("C")
    sch.show()
    out = capsys.readouterr().out
    assert 'T.block("C")' in out and "sch.get_loops(block=b0)" in out


def _strided(producer_index: str, extent: int, consumer: str = "vi", consumer_extent: int = 16):
    func = parse(f"""
    @T.prim_func
    def main(A: T.Buffer((32,), "float32"), C: T.Buffer((16,), "float32")):
        B = T.alloc_buffer((32,))
        for i in range({extent}):
            with T.block("B"):
                vi = T.axis.spatial({extent}, i)
                B[{producer_index}] = A[{producer_index}]
        for i in range({consumer_extent}):
            with T.block("C"):
                vi = T.axis.spatial({consumer_extent}, i)
                C[vi] = B[{consumer}]
    """)
    sch = Schedule(func)
    return sch, sch.state.block_info(sch.get_sref(sch.get_block("C")))["region_cover"]


def test_region_cover_of_a_strided_producer_write_is_exact():
    # TVM's EstimateRegionLowerBound: B[2 * vi] for vi < 16 writes 0, 2, ..., 30 -- its
    # interval hull [0, 30] would claim B[1] is written; the lower bound is Nothing instead
    assert not _strided("vi * 2", 16)[1]
    assert not _strided("vi * 2", 16, consumer="vi * 2")[1]   # conservative, as TVM
    assert _strided("vi", 32)[1]
    sch, cover = _strided("vi * 2", 16)
    assert not sch.state.block_info(sch.get_sref(sch.get_block("root")))["stage_pipeline"]
    # a primitive that needs a stage pipeline refuses, naming the scope, and changes nothing
    mod = sch.mod
    with pytest.raises(errors.NotStagePipelineError, match='block "root"'):
        sch.compute_inline(sch.get_block("B"))
    assert sch.mod is mod


def test_region_cover_unions_adjacent_producers():
    # TVM's UnionRegionLowerBound: B[0:8] and B[8:16] from two producers cover B[0:16]
    func = parse("""
    @T.prim_func
    def main(A: T.Buffer((16,), "float32"), C: T.Buffer((16,), "float32")):
        B = T.alloc_buffer((16,))
        for i in range(8):
            with T.block("B0"):
                vi = T.axis.spatial(8, i)
                B[vi] = A[vi]
        for i in range(8):
            with T.block("B1"):
                vi = T.axis.spatial(16, i + 8)
                B[vi] = A[vi]
        for i in range(16):
            with T.block("C"):
                vi = T.axis.spatial(16, i)
                C[vi] = B[vi]
    """)
    sch = Schedule(func)
    assert sch.state.block_info(sch.get_sref(sch.get_block("C")))["region_cover"]


def test_an_ir_check_that_cannot_read_the_result_refuses_and_restores(func, monkeypatch):
    """The check after each primitive caught only ValueError: IR it could not even read (a
    TypeError inside verify_well_formed) escaped as a bare TypeError. It is now a ScheduleError
    saying the primitive produced ill-formed IR (what the fuzzers look for), and the schedule
    is unchanged."""
    import tirkit.tir.analysis as analysis  # pylint: disable=import-outside-toplevel

    def unreadable(mod):
        raise TypeError("unsupported operand type(s) for +: 'NoneType' and 'int'")

    sch = Schedule(func)
    loop = sch.get_loops(sch.get_block("B"))[0]
    mod, n = sch.mod, len(sch.trace.insts)
    monkeypatch.setattr(analysis, "verify_well_formed", unreadable)
    with pytest.raises(ScheduleError) as info:
        sch.split(loop, [None, 16])
    assert "split produced ill-formed IR" in str(info.value)
    assert "TypeError: unsupported operand" in str(info.value)
    assert sch.mod is mod and len(sch.trace.insts) == n
