"""Evolutionary search over the design space (mirrors MetaSchedule's ``EvolutionarySearch`` +
``TuneContext``; ``tune_tir`` mirrors ``meta_schedule.tune_tir``).

Each round: a population of traces — random samples of the design space, the database's best,
and mutants of the best measured so far (one sampling decision re-drawn: TVM's
``MutateTileSize``/``MutateUnroll``) — is scored by the cost model; the best unmeasured
candidates (plus a few random ones, epsilon-greedy) are measured by the backend, written to the
database and fed back to the model. The search stops after ``trials`` measurements, or early
when ``patience`` rounds bring no improvement. Everything random comes from ``seed``: the same
seed gives the same candidates.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any, Callable, cast

import numpy as np

from tirkit import tir
from tirkit.schedule import Schedule, Trace
from tirkit.schedule.errors import ScheduleError

from .cost_model import CostModel
from .database import Database, TuningRecord, workload_hash
from .features import extract
from .measure import LocalBackend, MeasureInput, MeasureResult
from .space import generate

SAMPLING_KINDS = ("SamplePerfectTile", "SampleCategorical")


@dataclass
class Candidate:
    """A schedule of the workload: its trace JSON, the scheduled function, its features."""

    trace_json: str
    func: tir.PrimFunc
    features: np.ndarray
    key: int = 0


@dataclass
class TuneResult:
    """What :func:`tune_tir` found: the best trace (JSON) and its seconds per call, every
    measurement in order, and the wall time."""

    best_trace: str | None
    best_secs: float
    history: list[tuple[str, MeasureResult]] = field(default_factory=list)
    wall_secs: float = 0.0

    def best_func(self, func: tir.PrimFunc) -> tir.PrimFunc:
        """``func`` scheduled with the best trace."""
        sch = Schedule(func, debug_mask="none")
        if self.best_trace:
            Trace.from_json(self.best_trace).apply_to_schedule(sch)
        return cast(tir.PrimFunc, sch.mod["main"])


def _candidate(sch: Schedule) -> Candidate:
    from tirkit.ir import structural_hash  # pylint: disable=import-outside-toplevel

    func = cast(tir.PrimFunc, sch.mod["main"])
    return Candidate(json.dumps(sch.trace.as_json()), func, extract(func),
                     structural_hash(func))


def replay(func: tir.PrimFunc, trace_json: str, mutate_at: int | None = None,
           seed: int = 0) -> Candidate | None:
    """The candidate a trace gives on ``func`` — with the ``mutate_at``-th sampling decision
    drawn anew (a mutation) — or None when it no longer applies."""
    sch = Schedule(func, seed=seed, debug_mask="none")
    trace = Trace.from_json(trace_json)
    sampling = [i for i in trace.insts if i.kind.name in SAMPLING_KINDS]
    target = sampling[mutate_at] if mutate_at is not None and sampling else None

    def provider(inst: Any, inputs: Any, attrs: Any, decision: Any) -> Any:
        del inputs, attrs
        return None if inst is target else decision
    try:
        trace.apply_to_schedule(sch, decision_provider=provider)
    except (ScheduleError, ValueError, TypeError):
        return None
    return _candidate(sch)


class Tuner:
    """One tuning run of a PrimFunc (see module doc)."""

    def __init__(self, func: tir.PrimFunc, *, trials: int, seed: int, backend: Any,
                 database: Database | None, batch: int = 8, population: int = 24,
                 patience: int = 4, target: str = "llvm",
                 progress: Callable[[int, int, float], None] | None = None) -> None:
        self.func, self.trials, self.seed, self.backend = func, trials, seed, backend
        self.db, self.batch, self.population, self.patience = database, batch, population, patience
        self.target, self.progress = target, progress
        self.rng = np.random.default_rng(seed)
        self.model = CostModel(seed)
        self.script = func.script()
        self.workload = workload_hash(func)
        self.seen: set[int] = set()
        self.measured: list[tuple[Candidate, float]] = []
        self.samples = 0

    def _random(self, n: int) -> list[Candidate]:
        out: list[Candidate] = []
        for _ in range(n * 3):
            if len(out) >= n:
                break
            self.samples += 1
            try:
                out.append(_candidate(generate(self.func, self.seed * 100_003 + self.samples)))
            except ScheduleError:
                continue
        return out

    def _mutants(self, n: int) -> list[Candidate]:
        parents = sorted(self.measured, key=lambda cs: cs[1])[:max(1, n // 2)]
        if self.db is not None and not self.measured:
            parents = [(c, 0.0) for c in self._from_db()]
        out = []
        for k in range(n):
            if not parents:
                break
            parent = parents[k % len(parents)][0]
            n_sampling = sum(1 for inst in json.loads(parent.trace_json)[0]
                             if inst[0] in SAMPLING_KINDS)
            if not n_sampling:
                continue
            cand = replay(self.func, parent.trace_json, int(self.rng.integers(n_sampling)),
                          int(self.rng.integers(1 << 30)))
            if cand is not None:
                out.append(cand)
        return out

    def _from_db(self) -> list[Candidate]:
        found = []
        for rec in self.db.get_top_k(self.workload, 4, self.target) if self.db else []:
            cand = replay(self.func, rec.trace)
            if cand is not None:
                found.append(cand)
        return found

    def _pick(self) -> list[Candidate]:
        pool = self._random(self.population // 2) + self._mutants(self.population // 2)
        fresh, keys = [], set()
        for c in pool:
            if c.key not in self.seen and c.key not in keys:
                keys.add(c.key)
                fresh.append(c)
        if not fresh:
            return []
        scores = self.model.predict([c.features for c in fresh])
        order = list(np.argsort(-scores))
        n = min(self.batch, self.trials - len(self.measured))
        explore = max(1, n // 4)
        chosen = [fresh[i] for i in order[:n - explore]]
        rest = [fresh[i] for i in order[n - explore:]]
        self.rng.shuffle(rest)
        return chosen + rest[:explore]

    def run(self) -> TuneResult:
        """Search until the trial budget or patience runs out."""
        start = time.perf_counter()
        result = TuneResult(None, float("inf"))
        stale = 0
        while len(self.measured) < self.trials and (not self.patience or stale < self.patience):
            batch = self._pick()
            if not batch:
                break
            inputs = [MeasureInput(self.script, c.trace_json, seed=self.seed) for c in batch]
            outcomes = self.backend.run(inputs)
            improved = False
            for cand, res in zip(batch, outcomes):
                self.seen.add(cand.key)
                self.measured.append((cand, res.best))
                result.history.append((cand.trace_json, res))
                if self.db is not None:
                    self.db.commit_record(TuningRecord(self.workload, self.target,
                                                       cand.trace_json, tuple(res.run_secs),
                                                       res.error))
                if res.best < result.best_secs:
                    result.best_secs, result.best_trace, improved = res.best, cand.trace_json, True
            self.model.update([c.features for c in batch], [r.best for r in outcomes])
            stale = 0 if improved else stale + 1
            if self.progress is not None:
                self.progress(len(self.measured), sum(1 for _, r in result.history if r.ok),
                              result.best_secs)
        result.wall_secs = time.perf_counter() - start
        return result


def tune_tir(func: Any, *, trials: int = 64, seed: int = 0, backend: Any = None,
             database: "Database | str | None" = None, workers: int = 1, batch: int = 8,
             timeout: float = 60.0, progress: Callable[[int, int, float], None] | None = None,
             patience: int = 4) -> TuneResult:
    """Tune a PrimFunc (or the only PrimFunc of a module) (``meta_schedule.tune_tir``).

    ``backend`` is a :class:`~tirkit.tune.measure.LocalBackend` (default, ``workers``
    processes) or :class:`~tirkit.tune.measure.RayBackend`; ``database`` a
    :class:`Database` or a path (records of every measurement). The search stops after
    ``trials`` measurements, or after ``patience`` rounds (of ``batch`` candidates) without a
    better time; ``patience=0`` never stops early.
    """
    from tirkit.ir import IRModule  # pylint: disable=import-outside-toplevel

    if isinstance(func, IRModule):
        (func,) = [f for f in func.functions.values() if isinstance(f, tir.PrimFunc)]
    db = Database(database) if isinstance(database, str) else database
    if db is not None:
        db.commit_workload(func)
    backend = backend or LocalBackend(workers, timeout)
    return Tuner(func, trials=trials, seed=seed, backend=backend, database=db, batch=batch,
                 progress=progress, patience=patience).run()
