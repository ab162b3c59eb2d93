"""Frames of the TIR IRBuilder (mirrors ``tvm.script.ir_builder.tir.frame``).

Each frame collects the statements built inside it and, on exit, wraps them into the statement it
stands for (a For, an IfThenElse, a Block...) and hands that to its parent frame.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from tirkit import tir
from tirkit.tir.analysis import has_block
from tirkit.ir import IntImm, PrimExpr, Range
from tirkit.ir.node import fill_missing_spans

from .base import IRBuilder, IRBuilderFrame

DETECT_ACCESS = "tir.script_parsing_detect_access"  # TVM's annotation: 1 = reads, 2 = writes


def as_stmt(stmts: Sequence[tir.Stmt]) -> tir.Stmt:
    """Join collected statements (``AsStmt``): empty gives ``Evaluate(0)``."""
    return tir.SeqStmt.flatten(list(stmts))


_COMPLETE = (tir.Stmt, tir.Buffer, tir.Var)


def add_to_parent(stmt: Any, span: Any = None) -> None:
    """Append ``stmt`` to the innermost open TIR frame, or make it the builder's result
    (``AddToParent``). Nodes of ``stmt`` without a span get ``span`` (default: the span of the
    statement being parsed).

    Raises:
        RuntimeError: when the innermost frame cannot hold statements.
    """
    builder = IRBuilder.current()
    fill_missing_spans(stmt, span if span is not None else builder.current_span, _COMPLETE)
    frame = builder.last_frame()
    if frame is None:
        builder.set_result(stmt)
        return
    if not isinstance(frame, TIRFrame):
        raise RuntimeError(f"a statement cannot appear directly inside {type(frame).__name__}")
    frame.stmts.append(stmt)


class TIRFrame(IRBuilderFrame):
    """A frame that collects statements (``TIRFrame``)."""

    def __init__(self) -> None:
        super().__init__()
        self.stmts: list[tir.Stmt] = []


class PrimFuncFrame(TIRFrame):
    """Builds a ``PrimFunc`` (``PrimFuncFrame``): params, buffer_map, attrs, ret type, root buffers."""

    def __init__(self, is_private: bool = False) -> None:
        super().__init__()
        self.name: str | None = None
        self.args: list[tir.Var] = []
        self.is_private = is_private
        self.ret_type: Any = None
        self.buffer_map: dict[tir.Var, tir.Buffer] = {}
        self.attrs: dict[str, Any] | None = None
        self.root_alloc_buffers: list[tir.Buffer] = []
        self.env_threads: dict[tir.Var, tir.IterVar] = {}
        self.s_tir = False  # declared @T.prim_func(s_tir=True) (TVM 0.27 tirx)

    def exit(self) -> None:
        attrs = dict(self.attrs or {})
        if self.name is not None and not self.is_private and "global_symbol" not in attrs:
            attrs.setdefault("global_symbol", self.name)
        body = as_stmt(self.stmts)
        if self.s_tir and not self.root_alloc_buffers and not has_block(body):
            # TVM 0.27 keeps s_tir=True as the attribute "s_tir"; a function with blocks needs
            # the flag anyway (the printer adds it), one without keeps it here
            attrs.setdefault("s_tir", True)
        func = tir.PrimFunc(self.args, body, self.ret_type, self.buffer_map, attrs,
                            span=self.span)
        func = _root_block(func, self.root_alloc_buffers)
        fill_missing_spans(func, self.span, _COMPLETE)
        from .ir_frames import IRModuleFrame  # pylint: disable=import-outside-toplevel

        builder = IRBuilder.current()
        module = builder.find_frame(IRModuleFrame)
        if module is not None:
            module.add_function(self.name or "main", func)
        else:
            builder.set_result(func)


def _root_block(func: tir.PrimFunc, root_buffers: list[tir.Buffer]) -> tir.PrimFunc:
    if not root_buffers:
        return func
    block = tir.Block([], [], [], "root", func.body, alloc_buffers=root_buffers)
    return func.with_body(tir.BlockRealize([], True, block))


class BlockFrame(TIRFrame):
    """Builds a ``Block`` and its ``BlockRealize`` (``BlockFrame``).

    ``reads``/``writes`` left ``None`` are inferred later (``ScriptComplete``); the block is then
    annotated with ``tir.script_parsing_detect_access`` as TVM does.
    """

    def __init__(self, name: str, no_realize: bool = False) -> None:
        super().__init__()
        self.name = name
        self.no_realize = no_realize
        self.iter_vars: list[tir.IterVar] = []
        self.iter_values: list[PrimExpr] = []
        self.reads: list[tir.BufferRegion] | None = None
        self.writes: list[tir.BufferRegion] | None = None
        self.init: tir.Stmt | None = None
        self.alloc_buffers: list[tir.Buffer] = []
        self.match_buffers: list[tir.MatchBufferRegion] = []
        self.annotations: dict[str, Any] | None = None
        self.predicate: PrimExpr | None = None

    def exit(self) -> None:
        annotations = dict(self.annotations or {})
        detect = (1 if self.reads is None else 0) | (2 if self.writes is None else 0)
        if detect:
            annotations[DETECT_ACCESS] = IntImm("int64", detect)
        block = tir.Block(self.iter_vars, self.reads or [], self.writes or [], self.name,
                          as_stmt(self.stmts), self.init, self.alloc_buffers,
                          self.match_buffers, annotations)
        if self.no_realize:
            add_to_parent(block, self.span)
            return
        pred = self.predicate if self.predicate is not None else True
        add_to_parent(tir.BlockRealize(self.iter_values, pred, block, span=self.span), self.span)


class BlockInitFrame(TIRFrame):
    """The ``T.init()`` part of a reduction block (``BlockInitFrame``)."""

    def exit(self) -> None:
        block = IRBuilder.current().find_frame(BlockFrame)
        if block is None:
            raise RuntimeError("T.init() must be inside a block")
        block.init = as_stmt(self.stmts)


class ForFrame(TIRFrame):
    """A loop nest (``ForFrame``): ``vars`` with ``doms``; ``make_for(var, dom, body)`` builds one
    level. ``with`` binds a single var or a list (``T.grid``)."""

    def __init__(self, vars_: list[tir.Var], doms: list[Range],
                 make_for: Callable[[tir.Var, Range, tir.Stmt], tir.Stmt]) -> None:
        super().__init__()
        self.vars = vars_
        self.doms = doms
        self.make_for = make_for
        self.index_exprs: list[PrimExpr] | None = None  # a strided loop binds start + v*step

    def enter(self) -> Any:
        bound = self.index_exprs if self.index_exprs is not None else self.vars
        return bound[0] if len(bound) == 1 else list(bound)

    def exit(self) -> None:
        body = as_stmt(self.stmts)
        for var, dom in reversed(list(zip(self.vars, self.doms))):
            body = self.make_for(var, dom, body)
        add_to_parent(body, self.span)


class _BodyFrame(TIRFrame):
    """A frame whose statements become the body of one wrapping statement."""

    def wrap(self, body: tir.Stmt) -> tir.Stmt:  # pragma: no cover - abstract
        raise NotImplementedError

    def exit(self) -> None:
        add_to_parent(self.wrap(as_stmt(self.stmts)), self.span)


class AssertFrame(_BodyFrame):
    """``T.Assert(cond, msg)`` scope (``AssertFrame``) → ``AssertStmt``."""

    def __init__(self, condition: PrimExpr, message: Any, error_kind: str = "RuntimeError",
                 message_parts: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.condition, self.message = condition, message
        self.error_kind, self.message_parts = error_kind, message_parts

    def wrap(self, body: tir.Stmt) -> tir.Stmt:
        return tir.AssertStmt(self.condition, self.message, body, self.error_kind,
                              self.message_parts)


class LetFrame(_BodyFrame):
    """``x = value`` / ``T.LetStmt`` scope (``LetFrame``) → ``LetStmt``."""

    def __init__(self, var: tir.Var, value: PrimExpr) -> None:
        super().__init__()
        self.var, self.value = var, value

    def enter(self) -> Any:
        return self.var

    def wrap(self, body: tir.Stmt) -> tir.Stmt:
        return tir.LetStmt(self.var, self.value, body)


class AttrFrame(_BodyFrame):
    """``T.attr(node, key, value)`` scope (``AttrFrame``) → ``AttrStmt``."""

    def __init__(self, node: Any, attr_key: str, value: Any) -> None:
        super().__init__()
        self.node, self.attr_key, self.value = node, attr_key, value

    def wrap(self, body: tir.Stmt) -> tir.Stmt:
        return tir.AttrStmt(self.node, self.attr_key, self.value, body)


class DictAttrFrame(AttrFrame):
    """tirx ``T.attr({key: value, ...})`` → one ``AttrStmt`` per key with node ``0``, the first
    key outermost (TVM 0.27's dict-attr pattern)."""

    def __init__(self, attrs: dict[str, Any]) -> None:
        first = next(iter(attrs.items()), ("", None))
        super().__init__(0, first[0], first[1])
        self.attrs = attrs

    def wrap(self, body: tir.Stmt) -> tir.Stmt:
        for key, value in reversed(list(self.attrs.items())):
            body = tir.AttrStmt(0, key, value, body)
        return body


class LaunchThreadFrame(_BodyFrame):
    """``T.launch_thread(thread, extent)`` (``LaunchThreadFrame``) → ``AttrStmt thread_extent``."""

    def __init__(self, iter_var: tir.IterVar, extent: PrimExpr, attr_key: str) -> None:
        super().__init__()
        self.iter_var, self.extent, self.attr_key = iter_var, extent, attr_key

    def enter(self) -> Any:
        return self.iter_var.var

    def wrap(self, body: tir.Stmt) -> tir.Stmt:
        return tir.AttrStmt(self.iter_var, self.attr_key, self.extent, body)


class WhileFrame(_BodyFrame):
    """``while cond:`` (``WhileFrame``) → ``While``."""

    def __init__(self, condition: PrimExpr) -> None:
        super().__init__()
        self.condition = condition

    def wrap(self, body: tir.Stmt) -> tir.Stmt:
        return tir.While(self.condition, body)


class AllocateFrame(_BodyFrame):
    """``T.allocate(extents, dtype, scope)`` (``AllocateFrame``) → ``Allocate``; binds the data
    pointer Var, as TVM v0.20 does (view it with ``T.Buffer(shape, dtype, data=ptr)``)."""

    def __init__(self, buffer: tir.Buffer, extents: list[PrimExpr], condition: Any,
                 annotations: dict[str, Any] | None) -> None:
        super().__init__()
        self.buffer, self.extents = buffer, extents
        self.condition, self.annotations = condition, annotations

    def enter(self) -> Any:
        return self.buffer.data

    def wrap(self, body: tir.Stmt) -> tir.Stmt:
        return tir.Allocate(self.buffer.data, self.buffer.dtype, self.extents, self.condition,
                            body, self.annotations or {})


class AllocateConstFrame(_BodyFrame):
    """``T.allocate_const(data, dtype, extents)`` (``AllocateConstFrame``) → ``AllocateConst``."""

    def __init__(self, buffer: tir.Buffer, data: Any, annotations: dict[str, Any] | None) -> None:
        super().__init__()
        self.buffer, self.data, self.annotations = buffer, data, annotations

    def enter(self) -> Any:
        return self.buffer.data

    def wrap(self, body: tir.Stmt) -> tir.Stmt:
        return tir.AllocateConst(self.buffer.data, self.buffer.dtype, self.buffer.shape,
                                 self.data, body, self.annotations or {})


class DeclBufferFrame(_BodyFrame):
    """``T.decl_buffer(...)`` (``DeclBufferFrame``) → ``DeclBuffer`` (inside an ``Allocate`` when
    the buffer's data was allocated by it, inside a ``LetStmt`` binding its data var to
    ``bound``, a pointer expression, when given one)."""

    def __init__(self, buffer: tir.Buffer, allocated: bool, bound: PrimExpr | None = None,
                 annotations: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.buffer, self.allocated, self.bound = buffer, allocated, bound
        self.annotations = annotations or {}

    def enter(self) -> Any:
        return self.buffer

    def wrap(self, body: tir.Stmt) -> tir.Stmt:
        stmt: tir.Stmt = tir.DeclBuffer(self.buffer, body)
        if self.allocated:
            stmt = tir.Allocate(self.buffer.data, self.buffer.dtype, self.buffer.shape, True, stmt,
                                self.annotations)
        if self.bound is not None:
            data = self.buffer.data
            if data.name_hint in ("", self.buffer.name):  # named with the buffer: B -> B_data
                object.__setattr__(data, "name_hint", f"{self.buffer.name}_data")
            stmt = tir.LetStmt(data, self.bound, stmt)
        return stmt


class RealizeFrame(_BodyFrame):
    """``T.realize(region, scope)`` (``RealizeFrame``) → ``AttrStmt realize_scope`` +
    ``BufferRealize``."""

    def __init__(self, region: tir.BufferRegion, storage_scope: str, condition: Any) -> None:
        super().__init__()
        self.region, self.storage_scope, self.condition = region, storage_scope, condition

    def wrap(self, body: tir.Stmt) -> tir.Stmt:
        realize = tir.BufferRealize(self.region.buffer, self.region.region, self.condition, body)
        return tir.AttrStmt(self.region.buffer, "realize_scope",
                            tir.StringImm(self.storage_scope), realize)


class IfFrame(TIRFrame):
    """``if cond:`` on a PrimExpr (``IfFrame``) with ``Then``/``Else`` sub-frames → ``IfThenElse``."""

    def __init__(self, condition: PrimExpr) -> None:
        super().__init__()
        self.condition = condition
        self.then_stmts: list[tir.Stmt] | None = None
        self.else_stmts: list[tir.Stmt] | None = None

    def exit(self) -> None:
        if self.then_stmts is None:
            raise RuntimeError("T.If needs a T.Then() block")
        else_case = as_stmt(self.else_stmts) if self.else_stmts is not None else None
        add_to_parent(tir.IfThenElse(self.condition, as_stmt(self.then_stmts), else_case),
                      self.span)


class ThenFrame(TIRFrame):
    """The then-branch of an ``IfFrame`` (``ThenFrame``)."""

    def exit(self) -> None:
        frame = IRBuilder.current().last_frame()
        if not isinstance(frame, IfFrame):
            raise RuntimeError("T.Then() must be directly inside T.If()")
        frame.then_stmts = self.stmts


class ElseFrame(TIRFrame):
    """The else-branch of an ``IfFrame`` (``ElseFrame``)."""

    def exit(self) -> None:
        frame = IRBuilder.current().last_frame()
        if not isinstance(frame, IfFrame):
            raise RuntimeError("T.Else() must be directly inside T.If()")
        frame.else_stmts = self.stmts
