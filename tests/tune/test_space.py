"""The design space: every candidate is a legal schedule that computes what the unscheduled
kernel computes, and its trace replays to the same candidate."""
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tune_kernels import CONV_PAD, MATMUL, SCALE_ROWSUM_RELU, SOFTMAX, VECSUM, parse

from tirkit.compiler import build
from tirkit.ir import structural_equal
from tirkit.tune import generate, replay
from tirkit.tune.measure import random_args
from tirkit.tune.space import MAX_PARALLEL_EXTENT

KERNELS = {"matmul": MATMUL, "scale_rowsum_relu": SCALE_ROWSUM_RELU, "softmax": SOFTMAX}
CONFIG = {"tir.disable_cse_tir": True}


def _run(func, seed):
    args = random_args(func, seed)
    build(func, config=CONFIG)(*args)
    return args


@pytest.mark.parametrize("name", sorted(KERNELS))
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_every_candidate_is_legal_and_computes_the_same(name, seed):
    func = parse(KERNELS[name])
    sch = generate(func, seed)
    got, want = _run(sch.mod["main"], 7), _run(func, 7)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-4)


def test_the_space_is_multi_level_tiling_with_parallel_vectorize_unroll():
    text = generate(parse(MATMUL), 3).mod["main"].script()
    assert "T.parallel(" in text and "T.vectorized(" in text
    assert "pragma_auto_unroll_max_step" in text
    assert 'T.block("C_init")' in text and 'T.block("C_update")' in text  # decompose_reduction
    # S0 and S1 fused into the parallel loop (within MAX_PARALLEL_EXTENT), then R0 S2 R1 S3
    assert "k_0" in text and "k_1" in text and "i_3" in text and "j_3" in text
    for seed in range(8):  # a fused parallel loop stays within MAX_PARALLEL_EXTENT
        for line in generate(parse(MATMUL), seed).mod["main"].script().splitlines():
            if "T.parallel(" in line and "_fused" in line:
                assert int(line.split("T.parallel(")[1].split(",")[0]) <= MAX_PARALLEL_EXTENT


def test_auto_inline_removes_the_element_wise_producer_only():
    text = generate(parse(SCALE_ROWSUM_RELU), 0).mod["main"].script()
    assert 'T.block("B")' not in text  # compute_inline into the reduction
    assert "] * T.float32(2" in text
    # a consumer of a reduction block is not reverse-inlined (TVM: the producer is not a
    # complete block), so D stays, parallel over its rows
    assert 'T.block("D")' in text


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_replaying_a_stored_trace_reproduces_the_candidate(seed):
    func = parse(MATMUL)
    sch = generate(func, seed)
    text = json.dumps(sch.trace.as_json())
    again = replay(func, json.loads(json.dumps(text)))  # through JSON text, as stored
    assert again is not None
    assert structural_equal(again.func, sch.mod["main"])
    assert json.loads(again.trace_json) == json.loads(text)


def test_the_same_seed_gives_the_same_candidate_and_others_differ():
    func = parse(MATMUL)
    traces = [json.dumps(generate(func, s).trace.as_json()) for s in (5, 5, 6, 7, 8)]
    assert traces[0] == traces[1]
    assert len(set(traces)) >= 3


def test_a_mutation_redraws_one_decision_and_stays_legal():
    func = parse(MATMUL)
    base = generate(func, 11)
    base_json = json.dumps(base.trace.as_json())
    decisions = json.loads(base_json)[1]
    changed = 0
    for k in range(8):
        cand = replay(func, base_json, mutate_at=k % 4, seed=k)
        assert cand is not None
        new = json.loads(cand.trace_json)[1]
        assert len(new) == len(decisions)
        changed += sum(a != b for a, b in zip(new, decisions)) <= 1
    assert changed == 8  # never more than one decision re-drawn


def test_random_compute_location_samples_a_location_for_each_intermediate_block():
    """An intermediate reduction is either tiled or left to RandomComputeLocation (a sampled
    choice); over a few seeds both happen, and every candidate replays."""
    func = parse(SOFTMAX)
    moved = tiled = 0
    for seed in range(8):
        sch = generate(func, seed)
        kinds = [inst.kind.name for inst in sch.trace.insts]
        moved += kinds.count("ComputeAt")
        tiled += kinds.count("DecomposeReduction")
        again = replay(func, json.dumps(sch.trace.as_json()))
        assert again is not None and structural_equal(again.func, sch.mod["main"])
    assert moved and tiled


def test_padding_is_not_inlined_but_computed_at_the_convolution():
    """AutoInline leaves a block with if_then_else alone (TVM's disallow_if_then_else for
    llvm); RandomComputeLocation then moves the padding under the tiled convolution's loops,
    never under a reduction loop that a data-parallel loop follows."""
    func = parse(CONV_PAD)
    at_loop = 0
    for seed in range(6):
        sch = generate(func, seed)
        text = sch.mod["main"].script()
        assert 'T.block("pad")' in text
        kinds = [inst.kind.name for inst in sch.trace.insts]
        at_loop += "ComputeAt" in kinds
        got, want = _run(sch.mod["main"], 3), _run(func, 3)
        np.testing.assert_allclose(got[-1], want[-1], rtol=1e-4, atol=1e-4)
    assert at_loop


def test_add_rfactor_offers_parallel_partial_sums_for_a_long_reduction():
    """AddRFactor: a sum with no spatial work gets rfactor at the outer or inner part of the
    split reduction, or none (sampled); every candidate computes the sum and replays."""
    func = parse(VECSUM)
    seen = set()
    for seed in range(12):
        sch = generate(func, seed)
        text = sch.mod["main"].script()
        seen.add("outer" if "B_rf[vk_0" in text else "inner" if "B_rf[vk_1" in text
                 else "none")
        got, want = _run(sch.mod["main"], 5), _run(func, 5)
        np.testing.assert_allclose(got[1], want[1], rtol=1e-4)
        again = replay(func, json.dumps(sch.trace.as_json()))
        assert again is not None and structural_equal(again.func, sch.mod["main"])
    assert seen == {"outer", "inner", "none"}
    # a matmul has spatial work enough: no rfactor there
    assert all("_rf" not in generate(parse(MATMUL), s).mod["main"].script() for s in range(4))
