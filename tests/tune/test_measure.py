"""Measurement on real worker processes: good candidates are timed and checked, a crashing or
hanging candidate costs only itself, and a candidate that computes something else is
discarded."""
import json

from tune_kernels import CRASH, EMPTY_TRACE, HANG, MATMUL, parse

from tirkit.tune import LocalBackend, MeasureInput, generate, measure
from tirkit.tune.measure import reference


def _trace(seed):
    return json.dumps(generate(parse(MATMUL), seed).trace.as_json())


def test_measure_in_process_times_and_checks_a_candidate():
    res = measure(MeasureInput(parse(MATMUL).script(), _trace(1), number=2, repeat=2))
    assert res.ok, res.error
    assert len(res.run_secs) == 2 and 0 < res.best < 1


def test_a_crashing_and_a_hanging_candidate_fail_and_the_batch_goes_on():
    backend = LocalBackend(workers=2, timeout=15, reference_timeout=60)
    good = MeasureInput(parse(MATMUL).script(), _trace(2), number=1, repeat=1)
    crash = MeasureInput(parse(CRASH).script(), EMPTY_TRACE, number=1, repeat=1)
    hang = MeasureInput(parse(HANG).script(), EMPTY_TRACE, number=1, repeat=1)
    # the hanging kernel's reference is given, so the candidate itself is the one that hangs
    backend.references[(hang.script, hang.entry, hang.seed)] = []
    try:
        out = backend.run([crash, good, hang, good])
    finally:
        backend.close()
    assert out[0].error and out[0].error.startswith("reference: worker crashed"), out[0]
    assert out[1].ok and out[3].ok, (out[1], out[3])
    assert out[2].error == "timeout after 15 s", out[2]


def test_a_worker_that_crashed_is_replaced_for_the_next_candidate():
    backend = LocalBackend(workers=1, timeout=20)
    crash = MeasureInput(parse(CRASH).script(), EMPTY_TRACE, number=1, repeat=1)
    good = MeasureInput(parse(MATMUL).script(), _trace(3), number=1, repeat=1)
    try:
        want = backend.run([good])[0]
        # the reference is known now, so the crash happens while measuring the candidate
        backend.references[(crash.script, crash.entry, crash.seed)] = []
        crashed, again = backend.run([crash, good])
    finally:
        backend.close()
    assert want.ok
    assert crashed.error and crashed.error.startswith("worker crashed (exit code"), crashed
    assert again.ok, again


def test_a_candidate_that_computes_something_else_is_discarded():
    inp = MeasureInput(parse(MATMUL).script(), _trace(4), number=1, repeat=1)
    want = reference(inp)
    want[2] = want[2] + 1  # as if the unscheduled kernel had computed C + 1
    res = measure(inp, want)
    assert not res.ok and res.error.startswith("wrong result: argument 2")


def test_a_trace_that_does_not_apply_is_a_build_failure():
    bad = json.dumps([[["GetBlock", [], ["nope", "main"], ["b0"]]], []])
    res = measure(MeasureInput(parse(MATMUL).script(), bad))
    assert not res.ok and res.error.startswith("build: ")
    assert res.best == float("inf")
