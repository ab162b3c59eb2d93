"""The learned cost model (mirrors MetaSchedule's ``XGBModel``, with LightGBM): a gradient-boosted
regressor from :mod:`.features` vectors to normalized throughput (the fastest measured run over
this candidate's run), retrained as measurements arrive. Until it has seen enough data it
ranks randomly (from its own seeded generator), as MetaSchedule's model does before training.
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

MIN_TRAIN = 8


class CostModel:
    """``update`` with measured (features, seconds) pairs, ``predict`` scores (higher is
    faster). ``seed`` fixes the untrained ranking and the booster.

    Raises:
        RuntimeError: from :meth:`update` when lightgbm is not installed.
    """

    def __init__(self, seed: int = 0) -> None:
        self.rng = np.random.default_rng(seed)
        self.seed = seed
        self.x: list[np.ndarray] = []
        self.secs: list[float] = []
        self.booster: Any = None

    def update(self, features: Sequence[np.ndarray], secs: Sequence[float]) -> None:
        """Add measurements (``float("inf")`` for failed candidates) and retrain."""
        for f, s in zip(features, secs):
            self.x.append(np.asarray(f, dtype=float))
            self.secs.append(float(s))
        ok = [s for s in self.secs if np.isfinite(s)]
        if len(ok) < MIN_TRAIN:
            return
        try:
            import lightgbm  # pylint: disable=import-outside-toplevel
        except ImportError as err:
            raise RuntimeError("the cost model needs lightgbm: pip install 'tirkit[tune]'") from err
        best = min(ok)
        y = np.array([best / s if np.isfinite(s) else 0.0 for s in self.secs])
        params = {"objective": "regression", "learning_rate": 0.2, "num_leaves": 15,
                  "min_data_in_leaf": 2, "min_data_in_bin": 1, "seed": self.seed,
                  "deterministic": True, "force_row_wise": True, "num_threads": 1,
                  "verbose": -1}
        data = lightgbm.Dataset(np.stack(self.x), y, params={"verbose": -1})
        self.booster = lightgbm.train(params, data, num_boost_round=60)

    def predict(self, features: Sequence[np.ndarray]) -> np.ndarray:
        """Scores of candidates (higher: predicted faster)."""
        if not len(features):
            return np.zeros(0)
        if self.booster is None:
            return self.rng.random(len(features))
        return np.asarray(self.booster.predict(np.stack([np.asarray(f) for f in features])))
