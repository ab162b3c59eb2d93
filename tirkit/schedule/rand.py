"""The schedule's random engine (mirrors TVM's ``support::LinearCongruentialEngine``): a
Lehmer generator modulo 2^31-1 with multiplier 48271, so sampling is deterministic for a seed.
"""
from __future__ import annotations

import os

MODULUS = 2147483647
MULTIPLIER = 48271


def normalize_seed(seed: int | None) -> int:
    """A seed in ``[1, MODULUS)``; ``None`` or ``-1`` draws one from the OS
    (TVM ``LinearCongruentialEngine::NormalizeSeed``)."""
    if seed is None or seed == -1:
        seed = int.from_bytes(os.urandom(4), "little")
    seed %= MODULUS
    return seed or 1


class RandState:
    """Mutable generator state (TVM's ``TRandState``) with the sampling helpers of
    ``src/tir/schedule/primitive/sampling.cc``."""

    def __init__(self, seed: int | None = None) -> None:
        self.state = normalize_seed(seed)
        for _ in range(3):  # small seeds start with tiny draws; mix them in first
            self.next()

    def next(self) -> int:
        """The next raw value in ``[1, MODULUS)``."""
        self.state = (self.state * MULTIPLIER) % MODULUS
        return self.state

    def fork_seed(self) -> int:
        """A seed for a forked generator (TVM ``ForkSeed``)."""
        return (self.next() * 32767) % 1999999973

    def uniform(self) -> float:
        """A float in ``[0, 1)``."""
        return (self.next() - 1) / (MODULUS - 1)

    def randint(self, lo: int, hi: int) -> int:
        """An int in ``[lo, hi)`` (TVM ``SampleInt``)."""
        return lo + int(self.uniform() * (hi - lo))

    def categorical(self, probs: list[float]) -> int:
        """An index drawn with weights ``probs`` (TVM ``MakeMultinomialSampler``)."""
        total = sum(probs)
        x = self.uniform() * total
        acc = 0.0
        for i, p in enumerate(probs):
            acc += p
            if x < acc:
                return i
        return len(probs) - 1
