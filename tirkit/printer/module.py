"""Printing of IRModules (mirrors TVM's ``printer/ir/ir.cc``): ``@I.ir_module class Module:``
with ``main`` first, then the other functions by name (tirx: ``main`` last), ``I.module_attrs`` and cross-function
calls spelled ``cls.f(...)`` (``Module.f(...)`` in the tirx dialect, as TVM 0.27 prints)."""
from __future__ import annotations

from tirkit.ir.module import IRModule

from .context import Printer, register
from .doc import Text, concat
from .expr import call
from .stmt_doc import CommentDoc, LineDoc, ScopeDoc, SDoc


def _order(mod: IRModule, tirx: bool) -> list:
    """Functions by name; ``main`` first in the classic dialect, last in tirx (TVM 0.27's
    ``SortableFunction``: main has the highest priority, ties by name)."""
    if tirx:
        return sorted(mod.functions.items(), key=lambda kv: (kv[0].name_hint == "main",
                                                             kv[0].name_hint))
    return sorted(mod.functions.items(), key=lambda kv: "" if kv[0].name_hint == "main"
                  else kv[0].name_hint)


@register(IRModule)
def print_ir_module(p: Printer, mod: IRModule) -> SDoc:
    """``@I.ir_module`` / ``class Module:`` with one method per function."""
    name = p.cfg.binding_name or "Module"
    alias = p.cfg.module_alias or (name if p.tirx else "cls")
    p.module = mod
    with p.frame(mod) as f:
        for gv in mod.functions:
            p.gvar_docs[id(gv)] = Text(f"{alias}.{gv.name_hint}")
        if mod.attrs:
            f.stmts.append(LineDoc(call(p, p.I("module_attrs"), [p.expr(mod.attrs).doc]).doc))
        saved = p.cfg.binding_name
        for i, (gv, func) in enumerate(_order(mod, p.tirx)):
            if i:  # TVM's doc printer ends each function with a blank line, none before the first
                f.stmts.append(CommentDoc(""))
            p.cfg.binding_name = gv.name_hint
            try:
                f.stmts.extend(p.stmts(func))
            finally:
                p.cfg.binding_name = saved
    p.ir_usage.add("ir")
    return ScopeDoc(concat("class ", name), f.stmts, decorators=[p.I("ir_module")])
