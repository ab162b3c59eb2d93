"""The TVMScript front end (mirrors ``tvm.script``): the ``T``/``I`` namespaces, the IRBuilder,
and the entry points ``from_source`` / ``parse_file``.

``from tirkit.lang import tir as T`` and ``from tirkit.lang import ir as I`` give the
namespaces for code that Python runs (decorator mode).
"""
from . import ir, tir  # noqa: F401
from .entry import ParsedUnit, from_source, parse_file  # noqa: F401
from .ir_builder.base import IRBuilder, IRBuilderFrame  # noqa: F401

__all__ = ["ir", "tir", "from_source", "parse_file", "ParsedUnit", "IRBuilder", "IRBuilderFrame"]
