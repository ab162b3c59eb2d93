"""The examples' schedule fuzzer (test_examples_differential.py) with the wider action set TVM
users combine: besides split / reorder / fuse / compute_at / reverse_compute_at / cache_read /
cache_write, also vectorize, parallel, unroll, compute_inline, reverse_compute_inline,
decompose_reduction, rfactor, blockize, reindex, storage_align, set_scope, annotate /
unannotate, add_unit_loop, transform_layout (axis permutations and axis splits, padded or not,
of non-parameter buffers), pad_einsum, transform_block_layout (iter permutations),
cache_inplace, decompose_padding, loop_partition, merge, reindex_cache_read/write,
reorder_block_iter_var, read_at/write_at, cache_index, rolling_buffer, sampled tilings and
compute_at at an index, on the examples and the TOPI kernels of examples/ and the TVM-style
kernels of fuzz_kernels.py.
Same contract: a step that does not apply raises ScheduleError and leaves the schedule as it
was, the trace replays (through JSON), the scheduled kernel gives the unscheduled kernel's
numbers. Deterministic and short in the suite; ``SCHED_FUZZ=N`` for a long random run,
``SCHED_FUZZ_BOUNDS=1`` to build with ``tir.instrument_bound_checkers``, pytest's
``--hypothesis-seed=N`` for another one; ``SCHED_FUZZ_SKIP=pad_einsum,rfactor`` leaves actions
out of a long run, ``SCHED_FUZZ_ONLY=row_norm,softmax.py`` draws only those kernels. A long
run does not shrink (a failure's note holds the applied trace)."""
import os
import sys

import numpy as np
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tirkit.schedule import Schedule, ScheduleError
from tirkit.schedule.testing import verify_trace_roundtrip

import fuzz_kernels
from test_examples_differential import EXAMPLES, EXAMPLES_DIR, FUZZ, _run, _step, _unscheduled

OLD = ["split", "split", "reorder", "fuse", "compute_at", "reverse_compute_at", "cache_read",
       "cache_write"]
NEW = ["vectorize", "parallel", "unroll", "compute_inline", "reverse_compute_inline",
       "decompose_reduction", "rfactor", "blockize", "reindex", "storage_align", "set_scope",
       "annotate", "unannotate", "add_unit_loop", "transform_layout", "pad_einsum",
       "transform_block_layout", "cache_inplace", "decompose_padding", "loop_partition",
       "merge", "reindex_cache", "reorder_block_iter_var", "read_at", "write_at", "cache_index",
       "rolling_buffer", "tile", "compute_at_index"]
SKIP = set(filter(None, os.environ.get("SCHED_FUZZ_SKIP", "").split(",")))
ONLY = sorted(filter(None, os.environ.get("SCHED_FUZZ_ONLY", "").split(",")))
ANN_KEYS = ["pragma_auto_unroll_max_step", "pragma_unroll_explicit", "fuzz_tag"]


def _topi(name):
    """(entry, module) of an examples/topi_*.py kernel at a small shape (TE-made: more stages,
    elementwise ones included, than the hand-written examples)."""
    from tirkit.compiler.transform import as_module  # pylint: disable=import-outside-toplevel
    if EXAMPLES_DIR not in sys.path:
        sys.path.insert(0, EXAMPLES_DIR)
    if name == "topi_conv2d_nhwc":
        import topi_conv2d  # pylint: disable=import-outside-toplevel
        return "conv2d_nhwc", as_module(topi_conv2d.conv2d_func("NHWC", (1, 5, 5, 4),
                                                                 (3, 3, 4, 3), stride=2))
    import topi_softmax  # pylint: disable=import-outside-toplevel
    return "softmax", as_module(topi_softmax.softmax_func(name == "topi_fast_softmax", (6, 10)))


TOPI = ["topi_softmax", "topi_fast_softmax", "topi_conv2d_nhwc"]
_TOPI_EXPECTED: dict = {}


def _kernel(name):
    """(entry, module, the unscheduled kernel's outputs) of an example, a TOPI kernel or one of
    fuzz_kernels.py's."""
    if name in EXAMPLES:
        return _unscheduled(name)
    if name not in _TOPI_EXPECTED:
        entry, mod = fuzz_kernels.kernel(name) if name in fuzz_kernels.SOURCES else _topi(name)
        _TOPI_EXPECTED[name] = (entry, mod, _run(mod, entry))
    return _TOPI_EXPECTED[name]


def _all_blocks(sch):
    """Names of every block under the root, nested ones (blockize) included."""
    out, todo = [], list(sch.get_child_blocks(sch.get_block("root")))
    while todo:
        rv = todo.pop(0)
        out.append(sch.get(rv).name_hint)
        todo[:0] = sch.get_child_blocks(rv)
    return out


def _params(sch):
    func = sch.mod[sch.func_working_on]
    return {id(func.buffer_map[p]) for p in func.params}


def _wide_step(sch, draw, action):
    if action in OLD:
        return _step(sch, draw, action)
    blocks = _all_blocks(sch)
    name = draw(st.sampled_from(blocks))
    block = sch.get_block(name)
    stmt = sch.get(block)
    loops = sch.get_loops(block)
    pick = lambda seq: seq[draw(st.integers(0, len(seq) - 1))]  # noqa: E731
    if action in ("vectorize", "parallel", "unroll", "blockize") and loops:
        getattr(sch, action)(pick(loops))
    elif action in ("compute_inline", "reverse_compute_inline"):
        getattr(sch, action)(block)
    elif action == "decompose_reduction" and loops:
        sch.decompose_reduction(block, pick(loops))
    elif action == "rfactor" and loops:
        sch.rfactor(pick(loops), draw(st.integers(0, 2)))
    elif action == "reindex":
        kind = draw(st.sampled_from(["read", "write"]))
        regions = stmt.reads if kind == "read" else stmt.writes
        if regions:
            sch.reindex(block, (kind, draw(st.integers(0, len(regions) - 1))))
    elif action == "storage_align" and stmt.writes:
        ndim = len(stmt.writes[0].buffer.shape)
        sch.storage_align(block, 0, draw(st.integers(-ndim, ndim - 1)),
                          draw(st.sampled_from([2, 4, 8])), draw(st.sampled_from([0, 1])))
    elif action == "set_scope" and stmt.writes:
        sch.set_scope(block, 0, draw(st.sampled_from(["global", "local"])))
    elif action in ("annotate", "unannotate"):
        target = pick([block, *loops])
        key = draw(st.sampled_from(ANN_KEYS))
        if action == "unannotate":
            sch.unannotate(target, key)
        else:
            sch.annotate(target, key, {"pragma_auto_unroll_max_step": 16,
                                       "pragma_unroll_explicit": 1}.get(key, "x"))
    elif action == "add_unit_loop":
        sch.add_unit_loop(pick([block, *loops]))
    elif action == "transform_layout":
        params = _params(sch)
        cands = [(k, i, r.buffer) for k, regions in (("read", stmt.reads), ("write", stmt.writes))
                 for i, r in enumerate(regions) if id(r.buffer) not in params]
        if cands:
            kind, i, buf = pick(cands)
            if draw(st.booleans()):
                perm = draw(st.permutations(range(len(buf.shape))))
                sch.transform_layout(block, (kind, i), lambda *idx: [idx[p] for p in perm])
            else:  # split one axis; a non-divisor pads (refused without a pad_value)
                a, f = draw(st.integers(0, len(buf.shape) - 1)), draw(st.sampled_from([2, 3, 4]))
                pad = draw(st.sampled_from([None, 0.0]))
                sch.transform_layout(block, (kind, i), lambda *idx: [
                    *idx[:a], idx[a] // f, idx[a] % f, *idx[a + 1:]], pad_value=pad)
    elif action == "transform_block_layout":
        perm = draw(st.permutations(range(len(stmt.iter_vars))))
        sch.transform_block_layout(block, lambda *v: [v[p] for p in perm])
    elif action == "cache_inplace":
        written = {id(w.buffer) for w in stmt.writes}
        both = [i for i, r in enumerate(stmt.reads) if id(r.buffer) in written]
        if both:
            sch.cache_inplace(block, pick(both), "global")
    elif action == "decompose_padding" and loops:
        sch.decompose_padding(block, pick(loops))
    elif action == "pad_einsum":
        sch.pad_einsum(block, [draw(st.sampled_from([1, 2, 4, 8])) for _ in stmt.iter_vars])
    else:
        _more_step(sch, draw, action, block, stmt, loops, pick)


def _more_step(sch, draw, action, block, stmt, loops, pick):
    """The actions added with fuzz_kernels.py: loop_partition, merge, reindex_cache_read /
    reindex_cache_write (a permutation of the iters the access uses), reorder_block_iter_var,
    read_at / write_at, cache_index, rolling_buffer, a sampled tiling (sample_perfect_tile +
    split) and compute_at / reverse_compute_at at an explicit index."""
    if action == "loop_partition" and loops:
        sch.loop_partition(pick(loops), [draw(st.sampled_from([1, 2, 3, 5])), None])
    elif action == "merge":
        other = sch.get_loops(sch.get_block(draw(st.sampled_from(_all_blocks(sch)))))
        if loops and other:
            sch.merge(pick(loops), pick(other))
    elif action == "reindex_cache":
        kind = draw(st.sampled_from(["read", "write"]))
        regions = stmt.reads if kind == "read" else stmt.writes
        if regions:
            i = draw(st.integers(0, len(regions) - 1))
            perm = draw(st.permutations(range(len(stmt.iter_vars))))
            fn = sch.reindex_cache_read if kind == "read" else sch.reindex_cache_write
            fn(block, i, "global", lambda *v: [v[p] for p in perm])
    elif action == "reorder_block_iter_var" and stmt.iter_vars:
        sch.reorder_block_iter_var(block, draw(st.permutations(range(len(stmt.iter_vars)))))
    elif action in ("read_at", "write_at") and loops:
        regions = stmt.reads if action == "read_at" else stmt.writes
        if regions:
            getattr(sch, action)(pick(loops), block, draw(st.integers(0, len(regions) - 1)),
                                 "global")
    elif action == "cache_index":
        sch.cache_index(block, "global", draw(st.sampled_from([0, 1])))
    elif action == "rolling_buffer" and stmt.writes:
        sch.rolling_buffer(block, 0)
    elif action == "tile" and loops:
        loop = pick(loops)
        sch.split(loop, sch.sample_perfect_tile(loop, draw(st.integers(2, 3)),
                                                max_innermost_factor=draw(st.sampled_from([2, 4,
                                                                                           16]))))
    elif action == "compute_at_index":
        other = sch.get_loops(sch.get_block(draw(st.sampled_from(_all_blocks(sch)))))
        if other:
            fn = draw(st.sampled_from([sch.compute_at, sch.reverse_compute_at]))
            fn(block, pick(other), preserve_unit_loops=draw(st.booleans()),
               index=draw(st.integers(-2, 3)))


def _check(data):
    file = data.draw(st.sampled_from(ONLY or sorted(EXAMPLES) + TOPI
                                     + sorted(fuzz_kernels.SOURCES)))
    entry, mod, expected = _kernel(file)
    sch = Schedule(mod, seed=0)
    sch.work_on(entry)
    weights = [a for a in OLD + NEW + NEW if a not in SKIP]  # the new ones twice as often
    try:
        for action in data.draw(st.lists(st.sampled_from(weights), min_size=2, max_size=7)):
            before = sch.mod
            try:
                _wide_step(sch, data.draw, action)
            except ScheduleError as err:
                assert sch.mod is before, f"{action} failed ({err}) but changed the module"
                # the schedule's debug check turns a primitive's ill-formed result into a bare
                # ScheduleError: that is a bug of the primitive, not a refusal
                assert "produced ill-formed IR" not in str(err), err
        verify_trace_roundtrip(sch, mod, text_format="json")
        for got, want in zip(_run(sch.mod, entry), expected):
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    except Exception as exc:
        exc.add_note(f"{file}; applied:\n" + "\n".join(sch.trace.as_python()))
        raise


@settings(max_examples=FUZZ or 4, derandomize=not FUZZ, deadline=None,
          suppress_health_check=list(HealthCheck),
          phases=[p for p in Phase if p is not Phase.shrink or not FUZZ])
@given(data=st.data())
def test_random_wide_schedules_of_the_examples_keep_the_numbers(data):
    _check(data)
