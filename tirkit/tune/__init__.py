"""Auto-tuning (mirrors ``tvm.meta_schedule``): a CPU design space of schedule rules whose
choices are sampling instructions, evolutionary search guided by a learned cost model,
measurement on a local process pool or a Ray cluster, and a SQLite database of every result.

    result = tune_tir(func, trials=200, database="tune.sqlite")
    fast = apply_best(func, "tune.sqlite")
"""
from __future__ import annotations

from .cost_model import CostModel
from .database import Database, TuningRecord, apply_best, workload_hash
from .features import FEATURE_NAMES, extract
from .measure import LocalBackend, MeasureInput, MeasureResult, RayBackend, measure
from .search import TuneResult, Tuner, replay, tune_tir
from .space import generate

__all__ = ["tune_tir", "Tuner", "TuneResult", "replay", "generate", "Database", "TuningRecord",
           "apply_best", "workload_hash", "CostModel", "extract", "FEATURE_NAMES",
           "LocalBackend", "RayBackend", "MeasureInput", "MeasureResult", "measure"]
