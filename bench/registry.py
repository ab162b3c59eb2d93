"""The table of benchmarks: ``@bench(name, unit)`` registers a setup returning ``(items, fn)``."""
from __future__ import annotations

from typing import Callable

BENCHES: dict[str, tuple[str, Callable[[], tuple[int, Callable[[], object]]]]] = {}


def bench(name: str, unit: str):
    """Register a benchmark setup producing ``(items, fn)``; ``unit`` names what an item is."""
    def deco(fn):
        BENCHES[name] = (unit, fn)
        return fn
    return deco
