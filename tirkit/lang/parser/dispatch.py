"""Per-dialect registration tables of statement handlers (mirrors
``tvm.script.parser.core.dispatch``): ``@register("tir", "For")``."""
from __future__ import annotations

from typing import Any, Callable

Handler = Callable[[Any, Any], None]
_TABLE: dict[tuple[str, str], Handler] = {}


def register(token: str, type_name: str) -> Callable[[Handler], Handler]:
    """Register ``fn(parser, node)`` for syntax nodes named ``type_name`` in dialect ``token``
    (``dispatch.register``)."""
    def deco(fn: Handler) -> Handler:
        _TABLE[(token, type_name)] = fn
        return fn
    return deco


def get(token: str, type_name: str) -> Handler | None:
    """The handler for ``type_name`` in dialect ``token``, falling back to the ``"default"``
    dialect (``dispatch.get``)."""
    return _TABLE.get((token, type_name)) or _TABLE.get(("default", type_name))
