"""The Ray backend, for real: a local Ray instance with two workers started by the test measures
a fixed candidate list and agrees with the local backend on the best candidate; a crashing
candidate costs only itself."""
import json

import pytest
from tune_kernels import CRASH, EMPTY_TRACE, HANG, parse

from tirkit.schedule import Schedule
from tirkit.tune import LocalBackend, MeasureInput, RayBackend

MATMUL64 = '''
from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((96, 96), "float32"), B: T.Buffer((96, 96), "float32"),
         C: T.Buffer((96, 96), "float32")):
    for i, j, k in T.grid(96, 96, 96):
        with T.block("C"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
'''


def _candidates():
    """Three schedules far apart in speed (no parallel loops, so contention for cores cannot
    reorder them): i k j with j vectorized, the naive i j k (B read with a stride), and k outside
    (C and A read with strides, B's panel re-read)."""
    func = parse(MATMUL64)
    fast = Schedule(func, debug_mask="none")
    i, j, k = fast.get_loops(fast.get_block("C"))
    j0, j1 = fast.split(j, [None, 16])
    fast.reorder(i, k, j0, j1)
    fast.vectorize(j1)
    fast.decompose_reduction(fast.get_block("C"), k)
    slow = Schedule(func, debug_mask="none")
    i, j, k = slow.get_loops(slow.get_block("C"))
    slow.reorder(k, j, i)
    return func.script(), [json.dumps(slow.trace.as_json()), EMPTY_TRACE,
                           json.dumps(fast.trace.as_json())]


@pytest.fixture(scope="module")
def ray_backend():
    backend = RayBackend(num_cpus=2, timeout=120)
    yield backend
    backend.close()


def test_ray_and_local_agree_on_the_best_candidate(ray_backend):
    script, traces = _candidates()
    inputs = [MeasureInput(script, t, number=5, repeat=3) for t in traces]
    local = LocalBackend(workers=1, timeout=120)
    try:
        by_local = local.run(inputs)
    finally:
        local.close()
    by_ray = ray_backend.run(inputs)
    assert ray_backend.workers == 2
    assert all(r.ok for r in by_local + by_ray), (by_local, by_ray)
    best_local = min(range(3), key=lambda k: by_local[k].best)
    best_ray = min(range(3), key=lambda k: by_ray[k].best)
    assert best_local == best_ray == 2


def test_a_crashing_candidate_on_ray_costs_only_itself(ray_backend):
    script, traces = _candidates()
    crash = MeasureInput(parse(CRASH).script(), EMPTY_TRACE, number=1, repeat=1)
    good = MeasureInput(script, traces[2], number=1, repeat=1)
    out = ray_backend.run([crash, good])
    assert out[0].error and out[0].error.startswith("worker crashed"), out[0]
    assert out[1].ok, out[1]


def test_a_hanging_candidate_on_ray_is_cancelled_and_the_batch_goes_on(ray_backend):
    script, traces = _candidates()
    hang = MeasureInput(parse(HANG).script(), EMPTY_TRACE, number=1, repeat=1)
    good = MeasureInput(script, traces[2], number=1, repeat=1)
    # the reference is given, so the candidate itself hangs
    ray_backend.references[(hang.script, hang.entry, hang.seed)] = ray_backend.ray.put([])
    # warm both workers first (a task's time counts from submission, and a cold worker's
    # imports took over 20 s at a load average of 10, failing the good candidates too)
    assert all(r.ok for r in ray_backend.run([good, good]))
    saved, ray_backend.timeout = ray_backend.timeout, 20
    try:
        out = ray_backend.run([hang, good, good])
    finally:
        ray_backend.timeout = saved
    assert out[0].error == "timeout after 20 s", out[0]
    assert out[1].ok and out[2].ok, out
