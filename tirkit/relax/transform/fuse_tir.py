"""FuseTIR: each primitive Relax function made by :class:`FuseOps` becomes one PrimFunc (mirrors
``tvm.relax.transform.FuseTIR``).

The fused PrimFunc takes the group's inputs and writes its result; the callees' blocks run one
after another in its root block, the intermediate results become ``alloc_buffer``\\ s of that
block, and every callee's buffer shapes are rewritten in terms of the caller's symbolic dims.
Symbolic vars that no buffer shape defines are passed as trailing int64 parameters
(``call_tir(..., tir_vars=...)``). The call of the primitive function becomes a ``call_tir``.
"""
from __future__ import annotations

from typing import Any, cast

from tirkit import tir
from tirkit.ir.expr import GlobalVar
from tirkit.ir.module import IRModule
from tirkit.ir.node import Node, node_fields
from tirkit.tir.analysis import undefined_vars
from tirkit.tir.stmt_functor import renew_defs

from .. import expr as rx
from ..op.base import call_tir
from ..struct_info import TensorStructInfo


def replace_objects(root: Any, mapping: dict[int, Any]) -> Any:
    """``root`` with every object whose ``id`` is in ``mapping`` replaced, rebuilt copy-on-write
    through node fields, tuples, lists and dicts."""
    memo: dict[int, Any] = {}

    def go(obj: Any) -> Any:
        key = id(obj)
        if key in mapping:
            return mapping[key]
        if key in memo:
            return memo[key]
        out = obj
        if isinstance(obj, (tuple, list)):
            items = [go(x) for x in obj]
            if any(a is not b for a, b in zip(items, obj)):
                out = type(obj)(items)
        elif isinstance(obj, dict):
            items2 = {go(k): go(v) for k, v in obj.items()}
            if any(a is not b for a, b in zip(items2.values(), obj.values())) or \
                    any(a is not b for a, b in zip(items2, obj)):
                out = items2
        elif isinstance(obj, Node) and not getattr(type(obj), "__interned__", False):
            changes = {}
            for f in node_fields(type(obj)):
                if not f.init:
                    continue
                value = getattr(obj, f.name)
                new = go(value)
                if new is not value:
                    changes[f.name] = new
            if changes:
                out = obj.with_changes(**changes)
        memo[key] = out
        return out

    return go(root)


class FuseTIR:
    """``relax.transform.FuseTIR``: primitive functions → PrimFuncs, calls → ``call_tir``."""

    def __call__(self, mod: IRModule) -> IRModule:
        prims = {gv: f for gv, f in mod.functions.items()
                 if isinstance(f, rx.Function) and f.attrs.get("Primitive")}
        if not prims:
            return mod
        funcs = {gv: f for gv, f in mod.functions.items() if gv not in prims}
        fused = {gv: _fuse(gv.name_hint, f, mod) for gv, f in prims.items()}
        callees = {id(cast(rx.Call, b.value).args[0]) for f in prims.values()
                   for blk in cast(rx.SeqExpr, f.body).blocks for b in blk.bindings}
        for gv, (prim_func, _) in fused.items():
            funcs[gv] = prim_func
        for gv, f in list(funcs.items()):
            if isinstance(f, rx.Function):
                funcs[gv] = _rewrite_calls(f, fused)
        return _drop_unused(IRModule(funcs, dict(mod.attrs)), callees)


def _buffer_for(name: str, sinfo: Any) -> tir.Buffer:
    if not isinstance(sinfo, TensorStructInfo) or sinfo.shape is None:
        raise ValueError(f"FuseTIR: {name!r} must be a tensor of known shape")
    return tir.decl_buffer(sinfo.shape, str(sinfo.dtype), name=name)


def _fuse(name: str, func: rx.Function, mod: IRModule) -> tuple[tir.PrimFunc, list[Any]]:
    buffers: dict[int, tir.Buffer] = {}
    params, buffer_map = [], {}
    for p in func.params:
        buf = _buffer_for(p.name_hint, p.struct_info_)
        buffers[id(p)] = buf
        handle = tir.Var(p.name_hint, "handle")
        params.append(handle)
        buffer_map[handle] = buf
    (block,) = cast(rx.SeqExpr, func.body).blocks
    result: Any = cast(rx.SeqExpr, func.body).body  # the var of the last binding
    allocs, stmts = [], []
    names: set[str] = set()
    for b in block.bindings:
        buf = _buffer_for(b.var.name_hint, b.var.struct_info_)
        buffers[id(b.var)] = buf
        if b.var is not result:
            allocs.append(buf)
        value = cast(rx.Call, b.value)  # a call_tir (what FuseOps grouped)
        callee = renew_defs(cast(tir.PrimFunc, mod.functions[cast(GlobalVar, value.args[0])]))
        body, inner_allocs = _inline_callee(callee, value, buffers[id(b.var)], buffers, names)
        stmts.append(body)
        allocs.extend(inner_allocs)
    out = buffers[id(result)]
    handle = tir.Var(result.name_hint, "handle")
    params.append(handle)
    buffer_map[handle] = out
    body = tir.SeqStmt(stmts) if len(stmts) > 1 else stmts[0]
    root = tir.Block([], [], [], "root", body, alloc_buffers=allocs)
    prim = tir.PrimFunc(params, tir.BlockRealize([], tir.const(True, "bool"), root),
                        buffer_map=buffer_map, attrs={"global_symbol": name})
    extra = _free_shape_vars(prim)
    if extra:
        prim = prim.with_changes(params=tuple(prim.params) + tuple(extra))
    return renew_defs(prim), extra  # its own symbolic vars, not the caller's


def _inline_callee(callee: tir.PrimFunc, call: rx.Call, out: tir.Buffer,
                   buffers: dict[int, tir.Buffer], names: set[str]) -> tuple[Any, list]:
    args = list(cast(rx.Tuple, call.args[1]).fields)
    outs = 1
    mapping: dict[int, Any] = {}
    for param, arg in zip(callee.params, args):
        mapping[id(callee.buffer_map[param])] = buffers[id(arg)]
    mapping[id(callee.buffer_map[callee.params[len(args)]])] = out
    for param in callee.params:
        buf = callee.buffer_map.get(param)
        if buf is None:
            continue
        new = mapping[id(buf)]
        mapping[id(buf.data)] = new.data
        for old_dim, new_dim in zip(buf.shape, new.shape):
            if isinstance(old_dim, tir.Var) and id(old_dim) not in mapping:
                mapping[id(old_dim)] = new_dim
    ints = list(callee.params[len(args) + outs:])
    if len(call.args) > 2:
        for var, value in zip(ints, cast(rx.ShapeExpr, call.args[2]).values):
            mapping[id(var)] = value
    root = callee.body.block if isinstance(callee.body, tir.BlockRealize) else None
    body = root.body if root is not None and root.name_hint == "root" else callee.body
    allocs = list(root.alloc_buffers) if root is not None and root.name_hint == "root" else []
    body = _unique_block_names(replace_objects(body, mapping), names)
    return body, allocs


def _unique_block_names(body: Any, names: set[str]) -> Any:
    renames: dict[int, Any] = {}

    def visit(n: Any) -> None:
        if isinstance(n, tir.Block):
            name, k = n.name_hint, 0
            while name in names:
                k += 1
                name = f"{n.name_hint}_{k}"
            names.add(name)
            if name != n.name_hint:
                renames[id(n)] = name

    from tirkit.tir.stmt_functor import post_order_visit  # pylint: disable=import-outside-toplevel

    post_order_visit(body, visit)
    if not renames:
        return body
    from tirkit.tir.stmt_functor import ir_transform  # pylint: disable=import-outside-toplevel

    return ir_transform(body, None, lambda n: n.with_changes(name_hint=renames[id(n)])
                        if isinstance(n, tir.Block) and id(n) in renames else None)


def _free_shape_vars(prim: tir.PrimFunc) -> list[Any]:
    defined = set()
    for buf in prim.buffer_map.values():
        for d in buf.shape:
            if isinstance(d, tir.Var):
                defined.add(id(d))
    free = [v for v in undefined_vars(prim.body, prim.params) if v.dtype != "handle"
            and id(v) not in defined]
    shape_free: list[tir.Var] = []
    for buf in prim.buffer_map.values():
        for d in buf.shape:
            for v in undefined_vars(d, []):
                if id(v) not in defined and all(v is not f for f in shape_free):
                    shape_free.append(v)
    return shape_free + [v for v in free if all(v is not f for f in shape_free)]


def _rewrite_calls(func: rx.Function, fused: dict[GlobalVar, tuple[tir.PrimFunc, list]]) -> Any:
    blocks = []
    for block in cast(rx.SeqExpr, func.body).blocks:
        bindings = []
        for b in block.bindings:
            v = b.value
            if isinstance(v, rx.Call) and isinstance(v.op, GlobalVar) and v.op in fused:
                _, extra = fused[v.op]
                v = call_tir(v.op, list(v.args), b.var.struct_info_,
                             tir_vars=extra if extra else None)
                b = b.with_changes(value=v)
            bindings.append(b)
        blocks.append(type(block)(bindings))
    return func.with_changes(body=func.body.with_changes(blocks=tuple(blocks)))


def _drop_unused(mod: IRModule, callees: set[int]) -> IRModule:
    """``mod`` without the fused callees no Relax function calls any more."""
    used: set[int] = set()

    def visit(obj: Any) -> None:
        if isinstance(obj, GlobalVar):
            used.add(id(obj))
        elif isinstance(obj, (list, tuple)):
            for x in obj:
                visit(x)
        elif isinstance(obj, rx.Expr) or isinstance(obj, (rx.Binding, rx.BindingBlock)):
            for f in node_fields(type(obj)):
                visit(getattr(obj, f.name, None))

    for f in mod.functions.values():
        if isinstance(f, rx.Function):
            visit(f.body)
    funcs = {gv: f for gv, f in mod.functions.items() if id(gv) in used or id(gv) not in callees}
    return IRModule(funcs, dict(mod.attrs))
