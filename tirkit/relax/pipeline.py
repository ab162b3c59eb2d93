"""The graph-level pipeline (mirrors ``tvm.relax.get_pipeline("default")`` for the parts tirkit
has): LegalizeOps → AnnotateTIROpPattern → FuseOps → FuseTIR, one ordered list like the TIR
pipeline; and the split of a module into its PrimFuncs for the TIR compiler.
"""
from __future__ import annotations

from typing import Any, Callable

from tirkit import tir
from tirkit.ir.expr import GlobalVar
from tirkit.ir.module import IRModule
from tirkit.ir.node import node_fields

from . import expr as rx
from .transform import AnnotateTIROpPattern, FuseOps, FuseTIR, LegalizeOps

#: The graph-level stages, in order: ``(name, pass)``.
GRAPH_PIPELINE: list[tuple[str, Callable[[IRModule], IRModule]]] = [
    ("LegalizeOps", LegalizeOps()),
    ("AnnotateTIROpPattern", AnnotateTIROpPattern()),
    ("FuseOps", FuseOps()),
    ("FuseTIR", FuseTIR()),
]


def has_relax(mod: Any) -> bool:
    """Whether ``mod`` is an IRModule holding a Relax function."""
    return isinstance(mod, IRModule) and any(isinstance(f, rx.Function)
                                             for f in mod.functions.values())


def rebind_global_vars(mod: IRModule) -> IRModule:
    """``mod`` whose Relax functions refer to the module's own GlobalVars (by name): a module
    reassembled from several sources (``tirc`` merges the file's units) keeps calls working."""
    from .transform.fuse_tir import replace_objects  # pylint: disable=import-outside-toplevel

    by_name = {gv.name_hint: gv for gv in mod.functions}
    found: dict[int, Any] = {}

    def visit(obj: Any) -> None:
        if isinstance(obj, GlobalVar):
            mine = by_name.get(obj.name_hint)
            if mine is not None and mine is not obj:
                found[id(obj)] = mine
        elif isinstance(obj, (list, tuple)):
            for x in obj:
                visit(x)
        elif isinstance(obj, (rx.Expr, rx.Binding, rx.BindingBlock)):
            cls: type = type(obj)  # (a type[Expr] is unhashable to mypy 2.4: lru_cache)
            for f in node_fields(cls):
                visit(getattr(obj, f.name, None))

    for f in mod.functions.values():
        if isinstance(f, rx.Function):
            visit(f.body)
    if not found:
        return mod
    return IRModule({gv: replace_objects(f, found) if isinstance(f, rx.Function) else f
                     for gv, f in mod.functions.items()}, dict(mod.attrs))


def run_graph_pipeline(mod: IRModule, fuse: bool = True) -> IRModule:
    """``mod`` after the graph stages (without the fusion stages when ``fuse`` is False)."""
    mod = rebind_global_vars(mod)
    for name, stage in GRAPH_PIPELINE:
        if fuse or name == "LegalizeOps":
            mod = stage(mod)
    return mod


def prim_funcs(mod: IRModule, fuse: bool = True) -> IRModule:
    """The PrimFuncs a Relax module compiles to (after the graph stages), each with its
    ``global_symbol`` set to its name, for :func:`tirkit.compiler.build`/``tirc``."""
    mod = run_graph_pipeline(mod, fuse) if has_relax(mod) else mod
    return IRModule({gv.name_hint: f.with_attr("global_symbol", gv.name_hint)
                     for gv, f in mod.functions.items() if isinstance(f, tir.PrimFunc)})
