"""IR → TVMScript text (mirrors ``tvm.script.printer``).

``script(node, **config)`` prints any IR object — expressions, statements, buffers, regions,
PrimFuncs, IRModules — as TVMScript that tirkit's parser reads back to a structurally equal IR.
Options are those of :class:`PrinterConfig` (TVM's ``PrinterConfig``).
"""
from __future__ import annotations

from typing import Any

from .. import _layers
from .config import Comments, PrinterConfig
from .render import script, to_docs

_layers.provide("script", script)  # Node.script (tirkit.ir.node, below the printer) prints with it

__all__ = ["script", "to_docs", "PrinterConfig", "Comments"]
