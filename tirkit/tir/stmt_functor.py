"""Statement visitors/mutators and IR utilities (mirrors ``tvm/tir/stmt_functor.h`` and
``tvm.tir.stmt_functor``).

Classes: :class:`StmtVisitor`, :class:`StmtMutator`, :class:`StmtExprVisitor`,
:class:`StmtExprMutator` (see :mod:`.functor` for the dispatch rules and what is visited).
Functions: :func:`post_order_visit`, :func:`pre_order_visit`, :func:`substitute`,
:func:`substitute_with_dtype_cast`, :func:`ir_transform`, :func:`renew_defs`.
"""
from __future__ import annotations

import sys as _sys
from typing import Any, Callable, Iterable, Mapping

from .. import _layers
from ..ir.expr import PrimExpr
from . import stmt as S
from .buffer import Buffer
from .expr import Var
from .expr import IterVar, Let
from .function import PrimFunc
from .order_visit import OrderWalk
from .functor import (EXPR_CHILDREN, Children, ExprMutator, ExprVisitor, Functor, check_defaults,
                      register_leaf_defaults,
                      default_mutate, default_visit, map_tuple, mutate_range, mutate_region)

_layers.provide("tir.stmt_functor", _sys.modules[__name__])  # CommReducer.__call__ (tir.expr)

#: Statement node class -> ``(field, kind)`` children, in TVM's ``StmtVisitor`` order.
STMT_CHILDREN: dict[type, Children] = {
    S.LetStmt: (("value", "expr"), ("body", "stmt")),
    S.AttrStmt: (("value", "expr"), ("body", "stmt")),
    S.AssertStmt: (("condition", "expr"), ("message", "expr"), ("body", "stmt")),
    S.BufferStore: (("value", "expr"), ("indices", "exprs"), ("predicate", "expr")),
    S.BufferRealize: (("bounds", "ranges"), ("condition", "expr"), ("body", "stmt")),
    S.Allocate: (("extents", "exprs"), ("body", "stmt"), ("condition", "expr")),
    S.AllocateConst: (("extents", "exprs"), ("body", "stmt")),
    S.DeclBuffer: (("body", "stmt"),),
    S.SeqStmt: (("seq", "stmts"),),
    S.IfThenElse: (("condition", "expr"), ("then_case", "stmt"), ("else_case", "stmt")),
    S.Evaluate: (("value", "expr"),),
    S.For: (("min", "expr"), ("extent", "expr"), ("step", "expr"), ("body", "stmt")),
    S.While: (("condition", "expr"), ("body", "stmt")),
    S.Break: (),
    S.Continue: (),
    S.Prefetch: (("bounds", "ranges"),),
    S.Block: (("iter_vars", "iter_vars"), ("reads", "regions"), ("writes", "regions"),
              ("match_buffers", "match_buffers"), ("init", "stmt"), ("body", "stmt")),
    S.BlockRealize: (("iter_values", "exprs"), ("predicate", "expr"), ("block", "stmt")),
}


class _Callable(Functor):
    def __call__(self, node: Any) -> Any:
        """Visit a statement or an expression (``StmtExprVisitor::operator()``)."""
        if isinstance(node, PrimExpr):
            return self.visit_expr(node)  # type: ignore[attr-defined]  # pylint: disable=no-member
        return self.visit_stmt(node)  # type: ignore[attr-defined]  # pylint: disable=no-member


class StmtVisitor(_Callable):
    """Visit every sub-statement of a Stmt (mirrors ``tvm::tir::StmtVisitor``).

    Expressions inside statements are handed to :meth:`visit_expr`, which does nothing here;
    :class:`StmtExprVisitor` descends into them. Override ``visit_for_``, ``visit_block_``,
    ``visit_buffer_store_``... and call ``super()`` to keep descending.
    """

    def visit_stmt(self, stmt: S.Stmt) -> Any:
        """Dispatch on the statement's class (``StmtVisitor::VisitStmt``)."""
        fn = self._vtable.get(type(stmt))  # _dispatch inlined: one call less per node
        if fn is None:
            fn = type(self)._resolve(type(stmt))
        return fn(self, stmt)

    def visit_expr(self, expr: PrimExpr) -> Any:  # pylint: disable=unused-argument
        """Expressions are leaves for a pure statement visitor (``StmtVisitor::VisitExpr``)."""
        return None

    visit_let_stmt_ = default_visit(S.LetStmt, STMT_CHILDREN)
    visit_attr_stmt_ = default_visit(S.AttrStmt, STMT_CHILDREN)
    visit_assert_stmt_ = default_visit(S.AssertStmt, STMT_CHILDREN)
    visit_buffer_store_ = default_visit(S.BufferStore, STMT_CHILDREN)
    visit_buffer_realize_ = default_visit(S.BufferRealize, STMT_CHILDREN)
    visit_allocate_ = default_visit(S.Allocate, STMT_CHILDREN)
    visit_allocate_const_ = default_visit(S.AllocateConst, STMT_CHILDREN)
    visit_decl_buffer_ = default_visit(S.DeclBuffer, STMT_CHILDREN)
    visit_seq_stmt_ = default_visit(S.SeqStmt, STMT_CHILDREN)
    visit_if_then_else_ = default_visit(S.IfThenElse, STMT_CHILDREN)
    visit_evaluate_ = default_visit(S.Evaluate, STMT_CHILDREN)
    visit_for_ = default_visit(S.For, STMT_CHILDREN)
    visit_while_ = default_visit(S.While, STMT_CHILDREN)
    visit_break_ = default_visit(S.Break, STMT_CHILDREN)
    visit_continue_ = default_visit(S.Continue, STMT_CHILDREN)
    visit_prefetch_ = default_visit(S.Prefetch, STMT_CHILDREN)
    visit_block_ = default_visit(S.Block, STMT_CHILDREN)
    visit_block_realize_ = default_visit(S.BlockRealize, STMT_CHILDREN)


class StmtMutator(_Callable):
    """Rebuild a Stmt bottom-up, copy-on-write (mirrors ``tvm::tir::StmtMutator``).

    Unchanged statements come back as the very same object. :meth:`visit_expr` returns the
    expression unchanged; :class:`StmtExprMutator` mutates expressions too. A mutated
    ``SeqStmt`` is flattened: nested SeqStmts returned by children are spliced in and a
    one-statement sequence becomes that statement (``SeqStmt::Flatten``).
    """

    def visit_stmt(self, stmt: S.Stmt) -> S.Stmt:
        """Dispatch on the statement's class and return the mutated statement."""
        fn = self._vtable.get(type(stmt))  # _dispatch inlined: one call less per node
        if fn is None:
            fn = type(self)._resolve(type(stmt))
        return fn(self, stmt)

    def visit_expr(self, expr: PrimExpr) -> PrimExpr:
        """Expressions are kept as they are (``StmtMutator::VisitExpr``)."""
        return expr

    visit_let_stmt_ = default_mutate(S.LetStmt, STMT_CHILDREN)
    visit_attr_stmt_ = default_mutate(S.AttrStmt, STMT_CHILDREN)
    visit_assert_stmt_ = default_mutate(S.AssertStmt, STMT_CHILDREN)
    visit_buffer_store_ = default_mutate(S.BufferStore, STMT_CHILDREN)
    visit_buffer_realize_ = default_mutate(S.BufferRealize, STMT_CHILDREN)
    visit_allocate_ = default_mutate(S.Allocate, STMT_CHILDREN)
    visit_allocate_const_ = default_mutate(S.AllocateConst, STMT_CHILDREN)
    visit_decl_buffer_ = default_mutate(S.DeclBuffer, STMT_CHILDREN)
    visit_if_then_else_ = default_mutate(S.IfThenElse, STMT_CHILDREN)
    visit_evaluate_ = default_mutate(S.Evaluate, STMT_CHILDREN)
    visit_for_ = default_mutate(S.For, STMT_CHILDREN)
    visit_while_ = default_mutate(S.While, STMT_CHILDREN)
    visit_break_ = default_mutate(S.Break, STMT_CHILDREN)
    visit_continue_ = default_mutate(S.Continue, STMT_CHILDREN)
    visit_prefetch_ = default_mutate(S.Prefetch, STMT_CHILDREN)
    visit_block_ = default_mutate(S.Block, STMT_CHILDREN)
    visit_block_realize_ = default_mutate(S.BlockRealize, STMT_CHILDREN)

    def visit_seq_stmt_(self, op: S.SeqStmt) -> S.Stmt:
        """Mutate each statement; flatten nested SeqStmts when something changed."""
        seq = [self.visit_stmt(s) for s in op.seq]
        if all(a is b for a, b in zip(seq, op.seq)):
            return op
        flat: list[S.Stmt] = []
        for s in seq:
            if isinstance(s, S.SeqStmt):
                flat.extend(s.seq)
            elif s is not None:
                flat.append(s)
        if len(flat) == 1:
            return flat[0]
        return op.with_changes(seq=tuple(flat))


class StmtExprVisitor(StmtVisitor, ExprVisitor):
    """Visit statements and every expression inside them (``tvm::tir::StmtExprVisitor``,
    Python ``tvm.tir.PyStmtExprVisitor``). Buffers' shapes are not visited, as in TVM."""

    def visit_expr(self, expr: PrimExpr) -> Any:
        """Dispatch on the expression's class (``ExprVisitor::VisitExpr``)."""
        fn = self._vtable.get(type(expr))  # _dispatch inlined: one call less per node
        if fn is None:
            fn = type(self)._resolve(type(expr))
        return fn(self, expr)


class StmtExprMutator(StmtMutator, ExprMutator):
    """Mutate statements and every expression inside them, copy-on-write
    (``tvm::tir::StmtExprMutator``, Python ``tvm.tir.PyStmtExprMutator``)."""

    def visit_expr(self, expr: PrimExpr) -> PrimExpr:
        """Dispatch on the expression's class and return the mutated expression."""
        fn = self._vtable.get(type(expr))  # _dispatch inlined: one call less per node
        if fn is None:
            fn = type(self)._resolve(type(expr))
        return fn(self, expr)


check_defaults(StmtVisitor, STMT_CHILDREN)
check_defaults(StmtMutator, STMT_CHILDREN)
register_leaf_defaults(StmtVisitor, False)
register_leaf_defaults(StmtMutator, False)
register_leaf_defaults(StmtExprVisitor, True)
register_leaf_defaults(StmtExprMutator, True)

PyStmtExprVisitor = StmtExprVisitor  # TVM's Python-subclassable names (tvm.tir.PyStmtExprVisitor)
PyStmtExprMutator = StmtExprMutator


def _root(node: Any) -> Any:
    if isinstance(node, PrimFunc):
        return node.body
    if not isinstance(node, (PrimExpr, S.Stmt)):
        raise TypeError(f"expected a Stmt, PrimExpr or PrimFunc, got {type(node).__name__}")
    return node


# ------------------------------------------------------------------------------ order visits
#: the walk of the two functions below: what _OrderVisitor visits, without its dispatch
_WALK = OrderWalk({**STMT_CHILDREN, **EXPR_CHILDREN})


class _OrderVisitor(StmtExprVisitor):
    """Calls ``fvisit`` once per distinct Stmt/PrimExpr node (TVM's ``IRApplyVisit``); the
    reference for :class:`~tirkit.tir.order_visit.OrderWalk`, which does the same faster."""

    def __init__(self, fvisit: Callable[[Any], Any], pre: bool) -> None:
        self.fvisit = fvisit
        self.pre = pre
        self.visited: set[int] = set()

    def _apply(self, node: Any, descend: Callable[[Any], Any]) -> None:
        if id(node) in self.visited:
            return
        self.visited.add(id(node))
        if self.pre:
            if self.fvisit(node) is not False:
                descend(node)
        else:
            descend(node)
            self.fvisit(node)

    def visit_stmt(self, stmt: S.Stmt) -> None:
        self._apply(stmt, super().visit_stmt)

    def visit_expr(self, expr: PrimExpr) -> None:
        self._apply(expr, super().visit_expr)


def post_order_visit(node: Any, fvisit: Callable[[Any], Any]) -> None:
    """Call ``fvisit`` on every Stmt and PrimExpr under ``node`` (included), children first
    (mirrors ``tvm.tir.stmt_functor.post_order_visit``). A node reachable twice (shared) is
    visited once. ``node`` may be a Stmt, a PrimExpr or a PrimFunc (its body)."""
    _WALK.post(_root(node), fvisit)


def pre_order_visit(node: Any, fvisit: Callable[[Any], Any]) -> None:
    """Call ``fvisit`` on every Stmt and PrimExpr under ``node``, parents first; when ``fvisit``
    returns ``False`` the node's children are skipped (``tvm.tir.stmt_functor.pre_order_visit``)."""
    _WALK.pre(_root(node), fvisit)


# ------------------------------------------------------------------------------- substitution
VMap = Mapping[Var, Any] | Callable[[Var], Any]


def _as_lookup(vmap: VMap) -> Callable[[Var], Any]:
    if callable(vmap) and not isinstance(vmap, Mapping):
        return vmap
    table = {id(k): v for k, v in vmap.items()}
    return lambda var: table.get(id(var))


class _Substitute(StmtExprMutator):
    """``IRSubstitute``: replace uses of vars; remap buffers whose data var is replaced."""

    def __init__(self, lookup: Callable[[Var], Any], cast: bool) -> None:
        self.lookup = lookup
        self.cast = cast
        self.buffers: dict[int, Buffer] = {}

    def visit_var_(self, op: Var) -> PrimExpr:
        value = self.lookup(op)
        if value is None or value is op:
            return op
        from .op import cast, convert  # pylint: disable=import-outside-toplevel

        new: Any = convert(value, op.dtype)
        if new.dtype != op.dtype and not op.dtype.is_void():
            if not self.cast:
                raise TypeError(f"substitute: cannot replace {op.name_hint!r} of dtype "
                                f"{op.dtype} by {new!r} of dtype {new.dtype}")
            new = cast(op.dtype, new)
        return new

    def _buffer(self, buf: Buffer) -> Buffer:
        got = self.buffers.get(id(buf))
        if got is None:
            data = self.lookup(buf.data)
            got = buf.with_changes(data=data) if isinstance(data, Var) and data is not buf.data \
                else buf
            self.buffers[id(buf)] = got
        return got

    def _remap(self, node: Any) -> Any:
        buf = self._buffer(node.buffer)
        return node if buf is node.buffer else node.with_changes(buffer=buf)

    def visit_buffer_load_(self, op: Any) -> PrimExpr:
        return self._remap(super().visit_buffer_load_(op))

    def visit_buffer_store_(self, op: S.BufferStore) -> S.Stmt:
        return self._remap(super().visit_buffer_store_(op))

    def visit_decl_buffer_(self, op: S.DeclBuffer) -> S.Stmt:
        return self._remap(super().visit_decl_buffer_(op))

    def visit_attr_stmt_(self, op: S.AttrStmt) -> S.Stmt:
        new = super().visit_attr_stmt_(op)
        if isinstance(new.node, Var):
            mapped = self.lookup(new.node)
            if mapped is not None and mapped is not new.node:
                return new.with_changes(node=mapped)
        return new


def substitute(node: Any, vmap: VMap) -> Any:
    """Replace uses of Vars in a Stmt or PrimExpr (mirrors ``tvm.tir.stmt_functor.substitute``).

    Args:
        node: a Stmt or PrimExpr (a PrimFunc gets its body substituted).
        vmap: ``{Var: PrimExpr | int | float}`` or a callable ``Var -> PrimExpr | None`` (``None``
            keeps the var).

    Definition points (a For's ``loop_var``, a Let's ``var``, block iter vars, buffers' shapes)
    are not rewritten, only uses. A buffer whose data var maps to another Var is remapped in the
    loads/stores that use it, as TVM's ``IRSubstitute`` does. Unchanged subtrees stay identical.

    Raises:
        TypeError: when a replacement's dtype differs from the var's (see
        :func:`substitute_with_dtype_cast`).
    """
    return _apply_substitute(node, vmap, cast=False)


def substitute_with_dtype_cast(node: Any, vmap: VMap) -> Any:
    """Like :func:`substitute` but a replacement of another dtype is cast to the var's dtype
    (a simple form of TVM's ``SubstituteWithDataTypeLegalization``)."""
    return _apply_substitute(node, vmap, cast=True)


def _apply_substitute(node: Any, vmap: VMap, cast: bool) -> Any:
    mutator = _Substitute(_as_lookup(vmap), cast)
    if isinstance(node, PrimFunc):
        return node.with_body(mutator(node.body))
    return mutator(_root(node))


# --------------------------------------------------------------------------------- ir_transform
class _IRTransformer(StmtExprMutator):
    def __init__(self, preorder: Callable | None, postorder: Callable | None,
                 only_enable: Iterable[Any] | None) -> None:
        self.preorder = preorder
        self.postorder = postorder
        self.enabled = _enabled_set(only_enable)

    def _transform(self, node: Any, base: Callable[[Any], Any]) -> Any:
        if self.enabled is not None and not self.enabled(type(node)):
            return base(node)
        if self.preorder is not None:
            pre = self.preorder(node)
            if pre is not None:
                return pre
        new = base(node)
        if self.postorder is not None:
            post = self.postorder(new)
            if post is not None:
                return post
        return new

    def visit_stmt(self, stmt: S.Stmt) -> S.Stmt:
        return self._transform(stmt, super().visit_stmt)

    def visit_expr(self, expr: PrimExpr) -> PrimExpr:
        return self._transform(expr, super().visit_expr)


def _enabled_set(only_enable: Iterable[Any] | None) -> Callable[[type], bool] | None:
    if not only_enable:
        return None
    classes = {c for c in only_enable if isinstance(c, type)}
    names = {c.split(".")[-1] for c in only_enable if isinstance(c, str)}
    return lambda t: t in classes or t.__name__ in names


def ir_transform(stmt: Any, preorder: Callable[[Any], Any] | None,
                 postorder: Callable[[Any], Any] | None,
                 only_enable: Iterable[Any] | None = None) -> Any:
    """Recursively rewrite ``stmt`` with callbacks (mirrors ``tvm.tir.stmt_functor.ir_transform``).

    For each Stmt/PrimExpr node: ``preorder(node)`` is called first; a non-``None`` result
    replaces the node and its children are not visited. Otherwise children are transformed, then
    ``postorder(new_node)``; a non-``None`` result replaces it.

    Args:
        only_enable: node kinds the callbacks apply to, as classes or TVM type keys
            (``"tir.For"``, ``"tir.Call"``; the part after the last dot names the class); other
            nodes are only descended into. ``None``/empty enables all.
    """
    return _IRTransformer(preorder, postorder, only_enable)(_root(stmt))


# -------------------------------------------------------------------------------- renew_defs
class _RenewDefs(StmtExprMutator):
    def __init__(self) -> None:
        self.remap: dict[int, Any] = {}
        self._keep: list[Any] = []  # keeps the originals alive so ids stay unique

    # ---------------------------------------------------------------------------- definitions
    def define_var(self, var: Var) -> Var:
        new = var.with_changes()  # dataclasses.replace always builds a new object
        self._add(var, new)
        return new

    def _add(self, old: Any, new: Any) -> None:
        self.remap[id(old)] = new
        self._keep.append(old)

    def _redefine_if_var(self, e: PrimExpr) -> PrimExpr:
        if id(e) in self.remap:
            return self.remap[id(e)]
        if isinstance(e, Var):
            return self.define_var(e)
        return self.visit_expr(e)

    def define_buffer(self, buf: Buffer) -> Buffer:
        if id(buf) in self.remap:
            return self.remap[id(buf)]
        new = buf.with_changes(data=self._redefine_if_var(buf.data),
                               shape=tuple(self._redefine_if_var(e) for e in buf.shape),
                               strides=tuple(self._redefine_if_var(e) for e in buf.strides),
                               elem_offset=self._redefine_if_var(buf.elem_offset))
        self._add(buf, new)
        return new

    def use_buffer(self, buf: Buffer) -> Buffer:
        if id(buf) in self.remap:
            return self.remap[id(buf)]
        data = self.visit_expr(buf.data)
        shape = map_tuple(buf.shape, self.visit_expr)
        strides = map_tuple(buf.strides, self.visit_expr)
        offset = self.visit_expr(buf.elem_offset)
        if data is buf.data and shape is buf.shape and strides is buf.strides \
                and offset is buf.elem_offset:
            return buf
        new = buf.with_changes(data=data, shape=shape, strides=strides, elem_offset=offset)
        self._add(buf, new)
        return new

    def _with_buffer(self, node: Any) -> Any:
        buf = self.use_buffer(node.buffer)
        return node if buf is node.buffer else node.with_changes(buffer=buf)

    # ---------------------------------------------------------------------------- visit methods
    def visit_var_(self, op: Var) -> PrimExpr:
        return self.remap.get(id(op), op)

    def visit_for_(self, op: S.For) -> S.Stmt:
        new_var = self.define_var(op.loop_var)
        return super().visit_for_(op).with_changes(loop_var=new_var)

    def visit_let_stmt_(self, op: S.LetStmt) -> S.Stmt:
        new_var = self.define_var(op.var)
        return super().visit_let_stmt_(op).with_changes(var=new_var)

    def visit_let_(self, op: Let) -> PrimExpr:
        value = self.visit_expr(op.value)
        new_var = self.define_var(op.var)
        return op.with_changes(var=new_var, value=value, body=self.visit_expr(op.body))

    def visit_allocate_(self, op: S.Allocate) -> S.Stmt:
        new_var = self.define_var(op.buffer_var)
        return super().visit_allocate_(op).with_changes(buffer_var=new_var)

    def visit_allocate_const_(self, op: S.AllocateConst) -> S.Stmt:
        new_var = self.define_var(op.buffer_var)
        return super().visit_allocate_const_(op).with_changes(buffer_var=new_var)

    def visit_decl_buffer_(self, op: S.DeclBuffer) -> S.Stmt:
        buf = self.define_buffer(op.buffer)
        return op.with_changes(buffer=buf, body=self.visit_stmt(op.body))

    def visit_buffer_load_(self, op: Any) -> PrimExpr:
        return self._with_buffer(super().visit_buffer_load_(op))

    def visit_buffer_store_(self, op: S.BufferStore) -> S.Stmt:
        return self._with_buffer(super().visit_buffer_store_(op))

    def visit_buffer_realize_(self, op: S.BufferRealize) -> S.Stmt:
        return self._with_buffer(super().visit_buffer_realize_(op))

    def visit_prefetch_(self, op: S.Prefetch) -> S.Stmt:
        return self._with_buffer(super().visit_prefetch_(op))

    def _iter_var(self, iv: IterVar) -> IterVar:
        dom = mutate_range(self, iv.dom)
        return iv.with_changes(dom=dom, var=self.define_var(iv.var))

    def _region(self, br: S.BufferRegion) -> S.BufferRegion:
        return self._with_buffer(mutate_region(self, br))

    def visit_block_(self, op: S.Block) -> S.Stmt:
        iter_vars = tuple(self._iter_var(iv) for iv in op.iter_vars)
        allocs = tuple(self.define_buffer(b) for b in op.alloc_buffers)
        matches = tuple(m.with_changes(buffer=self.define_buffer(m.buffer),
                                       source=self._region(m.source)) for m in op.match_buffers)
        init = self.visit_stmt(op.init) if op.init is not None else None
        body = self.visit_stmt(op.body)
        return op.with_changes(iter_vars=iter_vars, alloc_buffers=allocs, match_buffers=matches,
                               init=init, body=body,
                               reads=tuple(self._region(r) for r in op.reads),
                               writes=tuple(self._region(w) for w in op.writes))

    def visit_reduce_(self, op: Any) -> PrimExpr:
        axis = tuple(self._iter_var(iv) for iv in op.axis)
        return super().visit_reduce_(op.with_changes(axis=axis))



def renew_defs(func: PrimFunc) -> PrimFunc:
    """A copy of ``func`` whose definitions are all fresh objects (mirrors
    ``tvm.tir.stmt_functor.renew_defs``): useful before inlining a function twice into a module.

    Every definition point gets a new object: params, buffer_map buffers (with their data vars and
    the Vars of their shape/strides/elem_offset), loop vars, LetStmt/Let vars, Allocate /
    AllocateConst buffer vars, DeclBuffer buffers, block iter vars, alloc_buffers and
    match_buffers. Uses are remapped; buffers used but never declared keep their vars but are
    rebuilt when one of them was renewed. The result is structurally equal to ``func``.

    Raises:
        TypeError: when ``func`` is not a PrimFunc.
    """
    if not isinstance(func, PrimFunc):
        raise TypeError(f"renew_defs expects a PrimFunc, got {type(func).__name__}")
    m = _RenewDefs()
    params = tuple(m.define_var(p) for p in func.params)
    buffer_map = {m.remap[id(p)]: m.define_buffer(b) for p, b in func.buffer_map.items()}
    body = m.visit_stmt(func.body)
    return func.with_changes(params=params, buffer_map=buffer_map, body=body)


__all__ = [
    "EXPR_CHILDREN", "STMT_CHILDREN", "ExprVisitor", "ExprMutator", "StmtVisitor", "StmtMutator",
    "StmtExprVisitor", "StmtExprMutator", "PyStmtExprVisitor", "PyStmtExprMutator",
    "post_order_visit", "pre_order_visit", "substitute",
    "substitute_with_dtype_cast", "ir_transform", "renew_defs",
]
