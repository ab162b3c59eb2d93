"""Printing of IRModules (mirrors TVM's ``printer/ir/ir.cc``): ``@I.ir_module class Module:``
with ``main`` first, then the other functions by name (tirx: ``main`` last), ``I.module_attrs``
and cross-function calls spelled ``cls.f(...)`` (``Module.f(...)`` in the tirx dialect, as TVM 0.27 prints).

With the ``written`` option (tirfmt) the functions keep the order they were written in and a
function that called ``Module.f(...)`` by the class's own name keeps that spelling.
"""
from __future__ import annotations

import re
from typing import Any

from tirkit.ir.module import IRModule

from .context import Printer, register
from .doc import Text, concat
from .expr import call
from .stmt_doc import CommentDoc, LineDoc, ScopeDoc, SDoc
from .written import written


def _order(mod: IRModule, tirx: bool) -> list:
    """Functions by name; ``main`` first in the classic dialect, last in tirx (TVM 0.27's
    ``SortableFunction``: main has the highest priority, ties by name)."""
    if tirx:
        return sorted(mod.functions.items(), key=lambda kv: (kv[0].name_hint == "main",
                                                             kv[0].name_hint))
    return sorted(mod.functions.items(), key=lambda kv: "" if kv[0].name_hint == "main"
                  else kv[0].name_hint)


def _as_written(p: Printer, items: list) -> list:
    """tirfmt: the functions in the order they were written (those whose text is known, by
    where it starts; the others after them, in TVM's order)."""
    def at(func: Any) -> tuple[int, int]:
        if written(p, func) is None:
            return (1 << 62, 0)
        return (func.span.line, func.span.column)
    return sorted(items, key=lambda kv: at(kv[1]))


def _alias(p: Printer, func: Any, name: str, default: str) -> str:
    """How ``func`` calls the module's functions: tirfmt keeps ``Module.f(...)`` written with
    the class's own name (and no ``cls.f``), else ``default``."""
    text = written(p, func) if p.cfg.written is not None else None
    if text is None or default == name or re.search(r"\bcls\s*\.", text):
        return default
    return name if re.search(r"(?<![\w.])" + re.escape(name) + r"\s*\.\s*\w", text) \
        else default


@register(IRModule)
def print_ir_module(p: Printer, mod: IRModule) -> SDoc:
    """``@I.ir_module`` / ``class Module:`` with one method per function."""
    name = p.cfg.binding_name or "Module"
    alias = p.cfg.module_alias or (name if p.tirx else "cls")
    p.module, p.module_name = mod, name
    with p.frame(mod) as f:
        if mod.attrs:
            f.stmts.append(LineDoc(call(p, p.I("module_attrs"), [p.expr(mod.attrs).doc]).doc))
        saved = p.cfg.binding_name
        funcs = _order(mod, p.tirx)
        if p.cfg.written is not None:
            funcs = _as_written(p, funcs)
        for i, (gv, func) in enumerate(funcs):
            if i:  # TVM's doc printer ends each function with a blank line, none before the first
                f.stmts.append(CommentDoc(""))
            p.gvar_alias = _alias(p, func, name, alias)
            for g in mod.functions:
                p.gvar_docs[id(g)] = Text(f"{p.gvar_alias}.{g.name_hint}")
            p.cfg.binding_name = gv.name_hint
            try:
                f.stmts.extend(p.stmts(func))
            finally:
                p.cfg.binding_name = saved
    p.ir_usage.add("ir")
    return ScopeDoc(concat("class ", name), f.stmts, decorators=[p.I("ir_module")])
