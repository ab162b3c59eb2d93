"""Scoped name table of the parser (mirrors ``tvm.script.parser.core.parser.VarTable``)."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator


class VarTable:
    """Names bound while parsing (params, loop vars, buffers, let vars...), in nested frames.

    ``with table.frame():`` opens a scope; names added inside disappear when it closes.
    """

    def __init__(self) -> None:
        self._frames: list[dict[str, Any]] = [{}]

    @contextmanager
    def frame(self) -> Iterator[None]:
        """A nested scope (``VarTable.with_frame``)."""
        self._frames.append({})
        try:
            yield
        finally:
            self._frames.pop()

    def add(self, name: str, value: Any, allow_shadowing: bool = True) -> None:
        """Bind ``name`` in the innermost scope (``VarTable.add``).

        Raises:
            ValueError: when shadowing is not allowed and ``name`` is already bound.
        """
        if not allow_shadowing and self.lookup(name) is not _MISSING:
            raise ValueError(f"variable {name!r} is already defined")
        self._frames[-1][name] = value

    def lookup(self, name: str) -> Any:
        """The innermost binding of ``name``, or :data:`_MISSING`."""
        for frame in reversed(self._frames):
            if name in frame:
                return frame[name]
        return _MISSING

    def exist(self, value: Any) -> bool:
        """Whether ``value`` (by identity) is bound to some name (``VarTable.exist``)."""
        return any(v is value for frame in self._frames for v in frame.values())

    def names(self) -> list[str]:
        """All bound names, innermost first (for "did you mean" suggestions)."""
        seen: list[str] = []
        for frame in reversed(self._frames):
            seen.extend(n for n in frame if n not in seen)
        return seen


class _Missing:
    def __repr__(self) -> str:
        return "<missing>"


_MISSING: Any = _Missing()
MISSING = _MISSING
