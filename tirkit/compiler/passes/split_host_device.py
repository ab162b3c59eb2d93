"""``SplitHostDevice``: move every device region into a kernel function of its own (mirrors
``tvm.tir.transform.SplitHostDevice``, src/tir/transforms/split_host_device.cc).

A region ``T.attr(target, "target", 0)`` (made by AnnotateDeviceRegions) becomes a new PrimFunc
``<global_symbol>_kernel`` (``_kernel_1``... when taken) whose params are the region's free
variables, handles first, then by name (TVM's order); the buffers it accesses but does not
declare get a ``T.decl_buffer`` at the top of the kernel. The kernel returns nothing (GPU
kernels cannot report errors) and carries the attributes ``target``, ``tir.noalias`` and
``tir.is_global_func``. The host function calls it in place of the region:
``T.evaluate(main_kernel(A_data, B_data, n))``.
"""
from __future__ import annotations

from typing import Any

from tirkit.ir.expr import GlobalVar
from tirkit.ir.module import IRModule
from tirkit.ir.type import TupleType
from tirkit.tir.analysis import DefUseVisitor
from tirkit.tir.buffer import Buffer
from tirkit.ir import Range
from tirkit.tir.expr import Call, IterVar, Var
from tirkit.tir.function import PrimFunc
from tirkit.tir.stmt import AttrStmt, DeclBuffer, Evaluate, Stmt
from tirkit.tir.stmt_functor import StmtExprMutator, StmtMutator, substitute

from ..transform import Pass, module_pass, register_pass

__all__ = ["SplitHostDevice", "split_host_device", "region_params"]


class _VarUseDef(DefUseVisitor):
    """TVM's ``VarUseDefAnalyzer`` with ``visit_thread_extent``: free vars and undeclared
    buffers of a region, in first-use order."""

    def __init__(self) -> None:
        super().__init__()
        self.defined: set[int] = set()
        self.undefined: list[Var] = []
        self.buffers: list[Buffer] = []
        self._seen: set[int] = set()

    def define(self, var: Var) -> None:
        self.defined.add(id(var))

    def use(self, var: Var) -> None:
        if id(var) not in self.defined and id(var) not in self._seen:
            self._seen.add(id(var))
            self.undefined.append(var)

    def buffer_data_use(self, buf: Buffer) -> None:
        if id(buf.data) not in self.defined and all(b is not buf for b in self.buffers):
            self.buffers.append(buf)
            for e in (buf.elem_offset,):
                self.visit_expr(e)
        self.use(buf.data)


def region_params(body: Stmt) -> tuple[list[Var], list[Buffer]]:
    """The params of a kernel made of ``body`` (handles first, then by name) and the buffers
    it must declare."""
    use_def = _VarUseDef()
    use_def(body)
    params = sorted(use_def.undefined, key=lambda v: (not v.dtype.is_handle(), v.name_hint))
    return params, use_def.buffers


class _Renamer(StmtExprMutator):
    """Fresh Vars for a kernel's params and the buffers built on them (TVM runs ConvertSSA
    after the split, so that no Var is shared by the host function and a kernel)."""

    def __init__(self, params: list[Var], buffers: list[Buffer]) -> None:
        self.vars = {id(v): v.with_changes() for v in params}
        self.buffers: dict[int, Buffer] = {}
        for buf in buffers:
            self.buffer(buf)

    def buffer(self, buf: Buffer) -> Buffer:
        """The kernel's copy of ``buf`` (itself when it uses no renamed Var)."""
        got = self.buffers.get(id(buf))
        if got is None:
            sub = lambda e: substitute(e, lambda v: self.vars.get(id(v)))  # noqa: E731
            got = buf.with_changes(data=self.vars.get(id(buf.data), buf.data),
                                   shape=tuple(sub(e) for e in buf.shape),
                                   strides=tuple(sub(e) for e in buf.strides),
                                   elem_offset=sub(buf.elem_offset))
            self.buffers[id(buf)] = got
        return got

    def visit_var_(self, op: Var) -> Any:
        return self.vars.get(id(op), op)

    def visit_attr_stmt_(self, op: AttrStmt) -> Any:
        new = super().visit_attr_stmt_(op)
        iv = new.node
        if isinstance(iv, IterVar) and iv.dom is not None:
            dom = Range.from_min_extent(self.visit_expr(iv.dom.min), self.visit_expr(iv.dom.extent))
            if dom.min is not iv.dom.min or dom.extent is not iv.dom.extent:
                return new.with_changes(node=iv.with_changes(dom=dom))
        return new

    def visit_buffer_load_(self, op: Any) -> Any:
        new = super().visit_buffer_load_(op)
        return new.with_changes(buffer=self.buffer(new.buffer))

    def visit_buffer_store_(self, op: Any) -> Any:
        new = super().visit_buffer_store_(op)
        return new.with_changes(buffer=self.buffer(new.buffer))

    def visit_decl_buffer_(self, op: Any) -> Any:
        new = super().visit_decl_buffer_(op)
        return new.with_changes(buffer=self.buffer(new.buffer))


class _HostDeviceSplitter(StmtMutator):
    def __init__(self, name: str, taken: set[str]) -> None:
        self.name = name
        self.taken = taken
        self.kernels: list[tuple[GlobalVar, PrimFunc]] = []

    def fresh(self) -> GlobalVar:
        """``<name>_kernel``, or ``<name>_kernel_1``... when the name is taken."""
        base, n = f"{self.name}_kernel", 0
        name = base
        while name in self.taken:
            n += 1
            name = f"{base}_{n}"
        self.taken.add(name)
        return GlobalVar(name)

    def visit_attr_stmt_(self, op: AttrStmt) -> Stmt:
        if op.attr_key != "target":
            return super().visit_attr_stmt_(op)
        params, buffers = region_params(op.body)
        renamer = _Renamer(params, buffers)
        body: Stmt = renamer(op.body)
        for buf in reversed(buffers):
            body = DeclBuffer(renamer.buffer(buf), body, span=op.span)
        attrs = {"target": op.node, "tir.noalias": True, "tir.is_global_func": True}
        kernel = PrimFunc(tuple(renamer.vars[id(v)] for v in params), body,
                          ret_type=TupleType(()), attrs=attrs, span=op.span)
        gv = self.fresh()
        self.kernels.append((gv, kernel))
        # int32, the dtype the parser gives a call of a module function (contract 2)
        return Evaluate(Call("int32", gv, tuple(params), span=op.span), span=op.span)


def split_host_device(mod: IRModule) -> IRModule:
    """``mod`` with the device regions of every PrimFunc split into kernels (the same module
    when there is no device region)."""
    taken = {gv.name_hint for gv in mod.functions}
    funcs: dict[GlobalVar, Any] = {}
    kernels: list[tuple[GlobalVar, PrimFunc]] = []
    for gv, func in mod.functions.items():
        if isinstance(func, PrimFunc):
            name = str(func.attrs.get("global_symbol") or gv.name_hint)
            splitter = _HostDeviceSplitter(name, taken)
            body = splitter(func.body)
            if body is not func.body:
                func = func.with_body(body)
                kernels += splitter.kernels
        funcs[gv] = func
    if not kernels:
        return mod
    funcs.update(kernels)
    return IRModule(funcs, mod.attrs, span=mod.span)


@register_pass("SplitHostDevice")
def SplitHostDevice() -> Pass:  # pylint: disable=invalid-name
    """Split device regions into kernel PrimFuncs (``tvm.tir.transform.SplitHostDevice``,
    opt_level 0)."""
    @module_pass("SplitHostDevice", 0)
    def run(mod: IRModule, ctx: Any) -> IRModule:
        del ctx
        return split_host_device(mod)
    return run
