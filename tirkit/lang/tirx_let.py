"""The marker of tirx's ``x: T.let[T.int32] = v`` (a Bind, TVM 0.27), told apart by the parser
from ``x: T.int32 = v`` (a local scalar cell in tirx)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class LetAnnotation:
    """``T.let[ty]``: ``value`` is the type (a Var of that type, or a type) of the let's var."""

    value: Any
