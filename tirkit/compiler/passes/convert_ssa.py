"""``ConvertSSA``: every variable defined once across the module (mirrors
``tvm.tir.transform.ConvertSSA``, ``src/tir/transforms/ir_utils.cc`` ``IRConvertSSA``).

Definition points are function parameters, ``For`` loop vars, ``LetStmt``/``Let`` vars,
``Allocate``/``AllocateConst`` buffer vars and block iter vars. The first definition of a var
keeps it; each later one (in the same function or another function of the module) gets a fresh
Var of the same name and type, and the uses inside its scope are renamed. Buffers whose data
var or shape vars were renamed are rebuilt.
"""
from __future__ import annotations

from typing import Any

from tirkit.ir.expr import IntImm, PrimExpr
from tirkit.ir.module import IRModule
from tirkit.tir import stmt as S
from tirkit.tir.buffer import Buffer
from tirkit.tir.expr import IterVar, Let, Var
from tirkit.tir.function import PrimFunc
from tirkit.tir.functor import map_tuple, mutate_range
from tirkit.tir.stmt_functor import StmtExprMutator

from ..transform import Pass, PassInfo, register_pass


class IRConvertSSA(StmtExprMutator):
    """The mutator behind :func:`ConvertSSA` (TVM's ``IRConvertSSA``); one instance per
    module, so that functions sharing vars are told apart too."""

    def __init__(self) -> None:
        self.defined: set[int] = set()
        self.scope: dict[int, list[Var]] = {}
        self._keep: list[Any] = []  # originals stay alive while their ids are keys
        self._buffers: dict[tuple, Buffer] = {}
        self.renamed = 0  # how many vars in scope are renamed (none: every use stays as it is)
        self._plain_buffers: dict[int, tuple[Buffer, bool]] = {}

    # ------------------------------------------------------------------------- definitions
    def define(self, var: Var) -> Var:
        """Enter the scope of ``var``; a fresh Var when ``var`` was defined before."""
        new = var
        if id(var) in self.defined:
            new = Var(var.name_hint, var.type_annotation, span=var.span)
            self.renamed += 1
        else:
            self.defined.add(id(var))
            self._keep.append(var)
        self.scope.setdefault(id(var), []).append(new)
        return new

    def undefine(self, var: Var) -> None:
        """Leave the scope of ``var``."""
        if self.scope[id(var)].pop() is not var:
            self.renamed -= 1

    def scoped(self, var: Var, fn: Any) -> tuple[Var, Any]:
        """Define ``var``, run ``fn(new_var)``, end its scope."""
        new = self.define(var)
        try:
            return new, fn(new)
        finally:
            self.undefine(var)

    def remap_buffer(self, buf: Buffer) -> Buffer:
        """``buf`` with its data/shape/strides/offset vars renamed as currently in scope."""
        if not self.renamed and self._plain(buf):  # no var renamed: its vars stay as they are
            return buf
        data = self.visit_expr(buf.data)
        shape = map_tuple(buf.shape, self.visit_expr)
        strides = map_tuple(buf.strides, self.visit_expr)
        offset = self.visit_expr(buf.elem_offset) if isinstance(buf.elem_offset, PrimExpr) \
            else buf.elem_offset
        if data is buf.data and shape is buf.shape and strides is buf.strides \
                and offset is buf.elem_offset:
            return buf
        key = (id(buf), id(data), tuple(map(id, shape)), tuple(map(id, strides)), id(offset))
        got = self._buffers.get(key)
        if got is None:
            got = buf.with_changes(data=data, shape=shape, strides=strides, elem_offset=offset)
            self._buffers[key] = got
            self._keep.append(buf)
        return got

    def _plain(self, buf: Buffer) -> bool:
        """Whether the data/shape/strides/offset of ``buf`` are Vars and constants only (no
        definition inside them to rename)."""
        got = self._plain_buffers.get(id(buf))
        if got is None:
            plain = all(isinstance(e, (Var, IntImm)) or e is None
                        for e in (buf.data, *buf.shape, *buf.strides, buf.elem_offset))
            got = self._plain_buffers[id(buf)] = (buf, plain)
        return got[1]

    def _with_buffer(self, node: Any) -> Any:
        buf = self.remap_buffer(node.buffer)
        return node if buf is node.buffer else node.with_changes(buffer=buf)

    # ---------------------------------------------------------------------------- visitors
    def visit_var_(self, op: Var) -> PrimExpr:
        stack = self.scope.get(id(op))
        return stack[-1] if stack else op

    def visit_for_(self, op: S.For) -> S.Stmt:
        lo, ext = self.visit_expr(op.min), self.visit_expr(op.extent)
        var, body = self.scoped(op.loop_var, lambda v: self.visit_stmt(op.body))
        if var is op.loop_var and lo is op.min and ext is op.extent and body is op.body:
            return op
        return op.with_changes(loop_var=var, min=lo, extent=ext, body=body)

    def visit_let_stmt_(self, op: S.LetStmt) -> S.Stmt:
        value = self.visit_expr(op.value)
        var, body = self.scoped(op.var, lambda v: self.visit_stmt(op.body))
        if var is op.var and value is op.value and body is op.body:
            return op
        return op.with_changes(var=var, value=value, body=body)

    def visit_let_(self, op: Let) -> PrimExpr:
        value = self.visit_expr(op.value)
        var, body = self.scoped(op.var, lambda v: self.visit_expr(op.body))
        if var is op.var and value is op.value and body is op.body:
            return op
        return op.with_changes(var=var, value=value, body=body)

    def _alloc(self, op: Any, base: Any) -> S.Stmt:
        var, new = self.scoped(op.buffer_var, lambda v: base(op))
        return new if var is op.buffer_var else new.with_changes(buffer_var=var)

    def visit_allocate_(self, op: S.Allocate) -> S.Stmt:
        return self._alloc(op, super().visit_allocate_)

    def visit_allocate_const_(self, op: S.AllocateConst) -> S.Stmt:
        return self._alloc(op, super().visit_allocate_const_)

    def visit_decl_buffer_(self, op: S.DeclBuffer) -> S.Stmt:
        return self._with_buffer(super().visit_decl_buffer_(op))

    def visit_buffer_load_(self, op: Any) -> PrimExpr:
        return self._with_buffer(super().visit_buffer_load_(op))

    def visit_buffer_store_(self, op: S.BufferStore) -> S.Stmt:
        return self._with_buffer(super().visit_buffer_store_(op))

    def visit_block_(self, op: S.Block) -> S.Stmt:
        ivs = list(op.iter_vars)
        new_vars = [self.define(iv.var) for iv in ivs]
        try:
            new = super().visit_block_(op)
            iter_vars = tuple(iv if nv is iv.var else IterVar(mutate_range(self, iv.dom), nv,
                                                              iv.iter_type, iv.thread_tag,
                                                              span=iv.span)
                              for iv, nv in zip(ivs, new_vars))
        finally:
            for iv in reversed(ivs):
                self.undefine(iv.var)
        if all(a is b for a, b in zip(iter_vars, op.iter_vars)):
            return new
        return new.with_changes(iter_vars=iter_vars)

    # ---------------------------------------------------------------------------- functions
    def convert_func(self, func: PrimFunc) -> PrimFunc:
        """Convert one function, renaming params (and the data/shape vars of its buffer_map
        buffers) already defined elsewhere in the module."""
        params = tuple(self.define(p) for p in func.params)
        buf_vars = _buffer_map_vars(func)
        for v in buf_vars:
            self.define(v)
        try:
            buffer_map = {self.visit_var_(p): self.remap_buffer(b)
                          for p, b in func.buffer_map.items()}
            body = self.visit_stmt(func.body)
        finally:
            for v in reversed(buf_vars):
                self.undefine(v)
            for p in reversed(func.params):
                self.undefine(p)
        same_map = all(np is p and nb is b for (np, nb), (p, b)
                       in zip(buffer_map.items(), func.buffer_map.items()))
        if body is func.body and params == func.params and same_map:
            return func
        return func.with_changes(params=params, buffer_map=buffer_map, body=body)


def _buffer_map_vars(func: PrimFunc) -> list[Var]:
    seen = {id(p) for p in func.params}
    out: list[Var] = []
    for buf in func.buffer_map.values():
        for v in (buf.data, *buf.shape, *buf.strides, buf.elem_offset):
            if isinstance(v, Var) and id(v) not in seen:
                seen.add(id(v))
                out.append(v)
    return out


def convert_ssa_module(mod: IRModule) -> IRModule:
    """Apply :class:`IRConvertSSA` to every PrimFunc of ``mod``; ``mod`` itself when already in
    SSA form (TVM's ``ConvertSSA`` pass body)."""
    conv = IRConvertSSA()
    funcs, changed = {}, False
    for gv, func in mod.functions.items():
        new = conv.convert_func(func) if isinstance(func, PrimFunc) else func
        changed |= new is not func
        funcs[gv] = new
    return IRModule(funcs, mod.attrs, span=mod.span) if changed else mod


@register_pass("ConvertSSA")
def ConvertSSA() -> Pass:  # pylint: disable=invalid-name
    """The pass making every var defined once across the module (mirrors
    ``tvm.tir.transform.ConvertSSA``)."""
    return Pass(PassInfo("ConvertSSA", 0), lambda mod, ctx: convert_ssa_module(mod))
