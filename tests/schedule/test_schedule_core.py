"""Schedule core: state, srefs, RVs, getters, copy/fork_seed/work_on, errors leave the schedule
unchanged, trace printing and JSON."""
import json

import pytest

from tirkit.ir import IRModule, structural_equal
from tirkit.schedule import (BlockRV, LoopRV, Schedule, ScheduleError, StmtSRef, Trace,
                             errors)
from tirkit.schedule.primitives.cache_layout_errors import TransformationPaddingIndexMapError
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


MATMUL_THEN_ADD = """
@T.prim_func
def main(A: T.Buffer((64, 64), "float32"), B: T.Buffer((64, 64), "float32"),
         D: T.Buffer((64, 64), "float32")):
    C = T.alloc_buffer((64, 64))
    for i, j, k in T.grid(64, 64, 64):
        with T.block("C"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
    for i, j in T.grid(64, 64):
        with T.block("D"):
            vi, vj = T.axis.remap("SS", [i, j])
            D[vi, vj] = C[vi, vj] + T.float32(1)
"""


@pytest.mark.parametrize("call,words", [
    (lambda s, c, i: s.storage_align(c, ("zz", 0), 0, 16, 1), "buffer_index must be an integer"),
    (lambda s, c, i: s.storage_align(c, 0, 0, 16.5, 1), "factor must be an integer"),
    (lambda s, c, i: s.read_at(i, c, ("zz", 0), "shared"), "read_buffer_index must be an integer"),
    (lambda s, c, i: s.cache_index(c, "global", "zz"), "cse_thresh must be an integer"),
    (lambda s, c, i: s.unannotate(c, [1.5]), "ann_key must be a string"),
    (lambda s, c, i: s.tensorize(c, [1.5]), "tensor_intrin must be a string"),
    (lambda s, c, i: s.get_block("C", func_name=[1]), "func_name must be a string or None"),
    (lambda s, c, i: s.pad_einsum(c, [None, 8, 8]), "padding must be a list of integers"),
    (lambda s, c, i: s.sample_categorical([1, 2], ["zz", 1]), "probs must be a list of numbers"),
    (lambda s, c, i: s.sample_categorical([1, 2], [1, 1], decision=float("nan")),
     "decision must be an integer or None"),
    (lambda s, c, i: s.cache_read(c, 0, "shared", consumer_blocks=float("nan")),
     "consumer_blocks must be a list or None"),
    (lambda s, c, i: s.unsafe_hide_buffer_access(c, "read", [None]),
     "buf_index_array must be a list of integers"),
])
def test_a_wrong_kind_of_argument_is_an_error_naming_the_parameter(call, words):
    """Found by probing every primitive with wrong kinds of arguments: a tuple where an index
    goes, a float factor, a NaN decision, a list key... escaped as TypeError/ValueError/
    AttributeError from deep inside (`'<=' not supported between 'int' and 'tuple'`). Each
    primitive's annotated parameters (int, str, bool, lists of them) are now checked before it
    runs: an InvalidArgumentError naming the block, the method and the parameter (TVM's FFI
    raises a TypeError)."""
    sch = Schedule(parse(MATMUL_THEN_ADD))
    c = sch.get_block("C")
    i = sch.get_loops(c)[0]
    mod, n = sch.mod, len(sch.trace.insts)
    with pytest.raises(errors.InvalidArgumentError, match=r"\w+: " + words):
        call(sch, c, i)
    assert sch.mod is mod and len(sch.trace.insts) == n


@pytest.mark.parametrize("call", [
    lambda s, c: s.transform_layout(c, ("read", 0), None),
    lambda s, c: s.transform_block_layout(c, None),
    lambda s, c: s.reindex_cache_read(c, 0, "shared", None),
])
def test_a_missing_index_map_is_an_invalid_argument_error(call):
    """index_map=None crashed with AttributeError ('NoneType' has no attribute
    'initial_indices') in the argument normaliser."""
    sch = Schedule(parse(MATMUL_THEN_ADD))
    c = sch.get_block("C")
    with pytest.raises(errors.InvalidArgumentError, match="the index map must be an IndexMap"):
        call(sch, c)


@pytest.mark.parametrize("pad", [("zz", 0), 10**30])
def test_an_unusable_pad_value_is_a_schedule_error(pad):
    """pad_value=('zz', 0) escaped as TypeError, 10**30 as ValueError from the constant
    conversion."""
    sch = Schedule(parse(MATMUL_THEN_ADD))
    mod = sch.mod
    with pytest.raises(TransformationPaddingIndexMapError, match="pad_value"):
        sch.transform_layout("C", ("write", 0), lambda i, j: (i // 3, j), pad_value=pad)
    assert sch.mod is mod


def test_a_block_renamed_by_a_primitive_is_named_in_the_not_found_error():
    """After loop_partition the block "B" is B_i0/B_i1 (TVM's naming): get_block("B") said only
    that no block has the name, which read as if the schedule had lost it. The error now lists
    the blocks named like it; a misspelling gets the close names."""
    sch = Schedule(parse(MATMUL_THEN_ADD))
    sch.loop_partition(sch.get_loops("D")[0], [None, 16])
    with pytest.raises(errors.BlockNotFoundError, match=r'name "D".*blocks named like it: .*D_i0'):
        sch.get_block("D")
    with pytest.raises(errors.BlockNotFoundError, match=r'name "c".*blocks named like it: C$'):
        sch.get_block("c")
