"""Operator fusion (mirrors ``tvm.relax.transform.AnnotateTIROpPattern`` and ``FuseOps``).

``AnnotateTIROpPattern`` classifies every PrimFunc by TVM's ``OpPatternKind`` (element-wise,
broadcast, injective, reduction, opaque) from its blocks. ``FuseOps`` then groups chains of
``call_tir`` bindings inside dataflow blocks — each producer's result used only by the next call
— made of injective calls with at most one reduction among them (so an element-wise chain, or
injective producers feeding a reduction, or a reduction with an element-wise epilogue), into a
private Relax function marked ``{"Primitive": True}`` that the caller calls instead.
:mod:`.fuse_tir` turns those functions into single PrimFuncs.
"""
from __future__ import annotations

from enum import IntEnum
from typing import Any, cast

from tirkit import tir
from tirkit.ir.expr import GlobalVar
from tirkit.ir.module import IRModule
from tirkit.ir.op import Op
from tirkit.tir.expr import IterVarType
from tirkit.tir.stmt_functor import post_order_visit

from .. import expr as rx
from ..struct_info import ObjectStructInfo


class OpPatternKind(IntEnum):
    """TVM's ``OpPatternKind``."""

    ELEMWISE = 0
    BROADCAST = 1
    INJECTIVE = 2
    COMM_REDUCE = 3
    OUT_ELEMWISE_FUSABLE = 4
    OPAQUE = 8


def op_pattern(func: tir.PrimFunc) -> OpPatternKind:
    """The pattern kind of a PrimFunc from its (non-root) blocks (TVM ``AnalyzeOpPatternKind``,
    simplified): one block with reduce iter vars is a reduction; blocks without them are
    element-wise when they store and load at the same indices, injective otherwise; several
    blocks with a reduction among them are opaque."""
    blocks: list[Any] = []
    post_order_visit(func.body, lambda n: blocks.append(n) if isinstance(n, tir.Block) else None)
    blocks = [b for b in blocks if b.iter_vars or b.name_hint != "root"]
    if not blocks:
        return OpPatternKind.OPAQUE
    reduces = [b for b in blocks if any(iv.iter_type == IterVarType.CommReduce
                                        for iv in b.iter_vars)]
    if reduces:
        return OpPatternKind.COMM_REDUCE if len(blocks) == 1 else OpPatternKind.OPAQUE
    return max((_spatial_kind(b) for b in blocks), default=OpPatternKind.OPAQUE)


def _spatial_kind(block: Any) -> OpPatternKind:
    stores: list[Any] = []
    loads: list[Any] = []

    def visit(n: Any) -> None:
        if isinstance(n, tir.BufferStore):
            stores.append(n)
        elif isinstance(n, tir.BufferLoad):
            loads.append(n)

    post_order_visit(block.body, visit)
    if len(stores) != 1:
        return OpPatternKind.OPAQUE
    idx = stores[0].indices
    if all(len(ld.indices) == len(idx) and all(a is b for a, b in zip(ld.indices, idx))
           for ld in loads):
        return OpPatternKind.ELEMWISE
    if all(all(any(a is b for b in idx) for a in ld.indices) for ld in loads):
        return OpPatternKind.BROADCAST
    return OpPatternKind.INJECTIVE


class AnnotateTIROpPattern:
    """Set ``op_pattern`` on every PrimFunc (``relax.transform.AnnotateTIROpPattern``)."""

    def __call__(self, mod: IRModule) -> IRModule:
        funcs = {}
        for gv, f in mod.functions.items():
            if isinstance(f, tir.PrimFunc) and "op_pattern" not in f.attrs:
                f = f.with_attr("op_pattern", int(op_pattern(f)))
            funcs[gv] = f
        return IRModule(funcs, dict(mod.attrs))


_DPS = ("relax.call_tir", "relax.call_tir_dyn")


def _is_call_tir(value: Any) -> bool:
    return isinstance(value, rx.Call) and isinstance(value.op, Op) and value.op.name in _DPS


class FuseOps:
    """Group fusable ``call_tir`` chains into primitive functions (``relax.transform.FuseOps``).

    Runs :class:`AnnotateTIROpPattern` first when PrimFuncs lack ``op_pattern``.
    """

    def __call__(self, mod: IRModule) -> IRModule:
        mod = AnnotateTIROpPattern()(mod)
        funcs = dict(mod.functions)
        names = {g.name_hint for g in funcs}
        for gv, func in list(mod.functions.items()):
            if isinstance(func, rx.Function) and "Primitive" not in func.attrs:
                funcs[gv] = _fuse_function(func, mod, funcs, names)
        return IRModule(funcs, dict(mod.attrs))


def _pattern(mod: IRModule, call: rx.Call) -> int:
    callee = mod.functions.get(call.args[0]) if isinstance(call.args[0], GlobalVar) else None
    if not isinstance(callee, tir.PrimFunc):
        return OpPatternKind.OPAQUE
    return int(callee.attrs.get("op_pattern", OpPatternKind.OPAQUE))


def _use_counts(func: rx.Function) -> dict[int, int]:
    counts: dict[int, int] = {}

    def visit(obj: Any) -> None:
        if isinstance(obj, rx.Var):
            counts[id(obj)] = counts.get(id(obj), 0) + 1
        elif isinstance(obj, rx.Tuple):
            for f in obj.fields:
                visit(f)
        elif isinstance(obj, rx.Call):
            for a in obj.args:
                visit(a)
        elif isinstance(obj, rx.TupleGetItem):
            visit(obj.tuple_value)

    for block in cast(rx.SeqExpr, func.body).blocks:
        for b in block.bindings:
            visit(b.value)
    visit(cast(rx.SeqExpr, func.body).body)
    return counts


def _groups(block: rx.BindingBlock, mod: IRModule, uses: dict[int, int]) -> list[list[Any]]:
    groups: list[list[Any]] = []
    current: list[Any] = []
    reductions = 0
    for b in block.bindings:
        value: Any = b.value  # (a call_tir where ok)
        ok = _is_call_tir(value) and _pattern(mod, value) <= OpPatternKind.COMM_REDUCE
        is_red = ok and _pattern(mod, value) == OpPatternKind.COMM_REDUCE
        chained = bool(current) and ok and any(a is current[-1].var
                                                for a in value.args[1].fields) \
            and uses.get(id(current[-1].var), 0) == 1 \
            and isinstance(current[-1].var, rx.DataflowVar) and not (is_red and reductions)
        if chained:
            current.append(b)
            reductions += is_red
            continue
        if current:
            groups.append(current)
        current, reductions = ([b], int(is_red)) if ok else ([], 0)
        if not ok:
            groups.append([b])
    if current:
        groups.append(current)
    return groups


def _fuse_function(func: rx.Function, mod: IRModule, funcs: dict, names: set[str]) -> rx.Function:
    uses = _use_counts(func)
    blocks = []
    for block in cast(rx.SeqExpr, func.body).blocks:
        if not isinstance(block, rx.DataflowBlock):
            blocks.append(block)
            continue
        bindings: list[Any] = []
        for group in _groups(block, mod, uses):
            if len(group) < 2:
                bindings.extend(group)
                continue
            bindings.append(_make_primitive(group, mod, funcs, names))
        blocks.append(rx.DataflowBlock(bindings))
    return func.with_changes(body=func.body.with_changes(blocks=tuple(blocks)))


def _make_primitive(group: list[Any], mod: IRModule, funcs: dict, names: set[str]) -> Any:
    bound = {id(b.var) for b in group}
    outer: list[rx.Var] = []
    for b in group:
        for a in b.value.args[1].fields:  # vars from outside and constants become parameters
            if id(a) not in bound and all(a is not o for o in outer):
                outer.append(a)
    params = [rx.Var(getattr(v, "name_hint", "const"), v.struct_info_) for v in outer]
    remap = {id(o): p for o, p in zip(outer, params)}
    inner: list[Any] = []
    for k, b in enumerate(group):
        args = rx.Tuple([remap.get(id(a), a) for a in b.value.args[1].fields])
        new_value = b.value.with_changes(args=(b.value.args[0], args) + b.value.args[2:])
        var_cls = rx.Var if k == len(group) - 1 else rx.DataflowVar
        var = var_cls(b.var.name_hint, b.var.struct_info_)
        remap[id(b.var)] = var
        inner.append(rx.VarBinding(var, new_value))
    result = inner[-1].var
    name = "fused_" + "_".join(b.value.args[0].name_hint for b in group)
    base, k = name, 0
    while name in names:
        k += 1
        name = f"{base}{k}"
    names.add(name)
    prim = rx.Function(params, rx.SeqExpr([rx.DataflowBlock(inner)], result),
                       result.struct_info_ or ObjectStructInfo(), True, {"Primitive": True})
    gv = GlobalVar(name)
    funcs[gv] = prim
    del mod
    call = rx.Call(gv, tuple(outer))
    object.__setattr__(call, "struct_info_", result.struct_info_)
    return rx.VarBinding(group[-1].var, call)
