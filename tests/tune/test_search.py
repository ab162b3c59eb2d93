"""The search: a seeded run is reproducible in what it proposes, records every measurement,
and its best trace is the fastest valid one; the cost model learns a ranking."""
import json

import numpy as np
from tune_kernels import MATMUL, parse

from tirkit.tune import CostModel, Database, LocalBackend, Tuner, tune_tir
from tirkit.tune.features import FEATURE_NAMES, extract
from tirkit.tune.measure import MeasureResult
from tirkit.tune.space import generate


def test_a_seed_fixes_the_candidates_proposed():
    func = parse(MATMUL)

    def first_batch(seed):
        tuner = Tuner(func, trials=8, seed=seed, backend=None, database=None)
        return [c.trace_json for c in tuner._pick()]  # pylint: disable=protected-access
    a, b, c = first_batch(4), first_batch(4), first_batch(5)
    assert a == b and len(a) == 8
    assert a != c


def test_tune_tir_records_every_candidate_and_keeps_the_fastest(tmp_path):
    func = parse(MATMUL)
    progress = []
    backend = LocalBackend(workers=2, timeout=60)
    try:
        result = tune_tir(func, trials=8, seed=1, batch=4, backend=backend,
                          database=str(tmp_path / "t.sqlite"),
                          progress=lambda *a: progress.append(a))
    finally:
        backend.close()
    assert len(result.history) == 8
    valid = [r.best for _, r in result.history if r.ok]
    assert len(valid) == 8
    assert result.best_secs == min(valid)
    assert progress[-1][0] == 8 and progress[-1][1] == 8
    with Database(tmp_path / "t.sqlite") as db:
        assert len(db) == 8
        (top,) = db.get_top_k(next(iter(db.records())).workload, 1)
    assert json.loads(top.trace) == json.loads(result.best_trace)
    assert "T.parallel(" in result.best_func(func).script()


def test_the_cost_model_ranks_by_what_it_was_shown():
    rng = np.random.default_rng(0)
    x = rng.random((40, len(FEATURE_NAMES)))
    secs = 1e-3 * (1 + 5 * x[:, 3])  # slower the larger feature 3
    model = CostModel(seed=0)
    model.update(list(x), list(secs))
    probe = np.zeros((2, len(FEATURE_NAMES)))
    probe[0, 3], probe[1, 3] = 0.05, 0.95
    fast, slow = model.predict(list(probe))
    assert fast > slow


def test_features_tell_schedules_apart():
    func = parse(MATMUL)
    a, b = extract(func), extract(generate(func, 3).mod["main"])
    assert a.shape == b.shape == (len(FEATURE_NAMES),)
    assert not np.array_equal(a, b)
    vec = FEATURE_NAMES.index("inner_vectorized")
    assert b[vec] > a[vec] == 0


class _SameTime:
    """A backend giving every candidate the same time (the search's stopping rule is under
    test here, not measurement; tests/tune/test_measure.py measures for real)."""

    def run(self, inputs):
        return [MeasureResult([1.0]) for _ in inputs]


def test_patience_stops_early_and_zero_runs_every_trial():
    func = parse(MATMUL)
    # every candidate takes the same time: round 1 improves on infinity, round 2 does not
    stopped = tune_tir(func, trials=16, seed=2, batch=4, backend=_SameTime(), patience=1)
    assert len(stopped.history) == 8
    full = tune_tir(func, trials=16, seed=2, batch=4, backend=_SameTime(), patience=0)
    assert len(full.history) == 16
