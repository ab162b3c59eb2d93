"""TVMScript's IRBuilder (mirrors ``tvm.script.ir_builder``): frames entered with ``with``
build the IR; the parser drives it, and Python code may drive it directly (``IRBuilder`` and the
``tir`` namespace of this package)."""
from .base import IRBuilder

__all__ = ["IRBuilder"]
