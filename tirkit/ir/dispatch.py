"""One small helper behind every per-node registration table of tirkit (mirrors the role of
TVM's ``NodeFunctor`` / ``ExprFunctor`` vtables): ``table.register(cls, ...)`` as a decorator."""
from __future__ import annotations

from typing import Any, Callable, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


class DispatchTable(dict):
    """A ``{key: handler}`` table (keys are node classes or names) filled by the
    :meth:`register` decorator, as TVM's ``NodeFunctor::set_dispatch`` does."""

    def register(self, *keys: Any) -> Callable[[F], F]:
        """Register the decorated function for every key."""
        def deco(fn: F) -> F:
            for key in keys:
                self[key] = fn
            return fn
        return deco

    def for_class(self, cls: type) -> Any:
        """The handler of ``cls`` or of its nearest base class that has one, else ``None``."""
        for base in cls.__mro__:
            if base in self:
                return self[base]
        return None
