"""The ``T`` namespace as TVM 0.27's ``tvm.script.tirx`` spells it, for files that import
``from tvm.script import tirx as T``: the classic names that tirx removed are gone (with a
pointer to their replacement), and ``T.sblock`` requires ``@T.prim_func(s_tir=True)``."""
from __future__ import annotations

from typing import Any

from . import tir as _tir
from .ir_builder.base import ScriptError

#: classic names tirx does not have -> the tirx name to use instead
REMOVED = {"block": "sblock", "block_attr": "sblock_attr", "allocate": "alloc_buffer",
           "allocate_const": "alloc_buffer"}


class TirxNamespace:
    """``T`` for tirx files (mirrors ``tvm.script.tirx``); one instance per parsed file.

    ``s_tir`` is set by the parser from the current function's ``@T.prim_func(s_tir=...)``.
    """

    __tirkit_suggest__ = REMOVED

    def __init__(self) -> None:
        self.s_tir = False

    def __getattr__(self, name: str) -> Any:
        if name in REMOVED or name.startswith("_"):
            raise AttributeError(name)
        if name == "sblock":
            return self._sblock
        return getattr(_tir, name)

    def __dir__(self) -> list[str]:
        return [n for n in dir(_tir) if n not in REMOVED]

    def _sblock(self, name: str = "", no_realize: bool = False) -> Any:
        if not self.s_tir:
            raise ScriptError("`T.sblock` needs `@T.prim_func(s_tir=True)` in the tirx dialect")
        return _tir.sblock(name, no_realize)
