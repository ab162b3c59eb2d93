"""Analyses over TIR (mirrors ``tvm.tir.analysis``): free variables, SSA and well-formedness
checks, deep equality of expressions.

All are built on one definition/use walker, :class:`DefUseVisitor`, which knows TIR's definition
points and their scopes: function params and ``buffer_map`` buffers (data var and the Vars of
shape/strides/elem_offset), ``For`` loop vars, ``LetStmt``/``Let`` vars, ``Allocate`` /
``AllocateConst`` buffer vars, thread ``IterVar``s of ``AttrStmt("thread_extent")`` / ``("virtual_thread")``, ``Block``
iter vars, ``alloc_buffers`` (their data var) and ``match_buffers`` (data and shape Vars), and
``Reduce`` axes.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable

from ..ir.deep import deep_walk
from ..ir.expr import PrimExpr
from ..ir.module import IRModule
from ..ir.node import Node, field_kind, node_fields
from . import stmt as S
from .buffer import Buffer
from .expr import Add, BufferLoad, IterVar, Let, Max, Min, Mul, Var
from .function import PrimFunc
from .stmt_functor import StmtExprVisitor, pre_order_visit


class DefUseVisitor(StmtExprVisitor):
    """Walks a Stmt/PrimExpr calling :meth:`define`, :meth:`undefine` (scope end) and
    :meth:`use` for Vars; subclasses give them meaning. ``path`` is the stack of enclosing
    statements. Mirrors the role of TVM's ``VarUseDefAnalyzer`` / ``TIRVisitorWithPath``."""

    def __init__(self) -> None:
        self.path: list[S.Stmt] = []
        #: the same path as a persistent chain ``(innermost, (outer, (... None)))``: a
        #: definition keeps it in O(1) where a copy of ``path`` costs its depth
        self.chain: tuple[S.Stmt, Any] | None = None
        self.declared: set[int] = set()  # ids of buffers in scope
        self.let_values: dict[int, PrimExpr] = {}

    # hooks ---------------------------------------------------------------------------------
    def define(self, var: Var) -> None:
        """``var`` is defined here (its scope starts)."""

    def undefine(self, var: Var) -> None:
        """The scope of ``var`` ends."""

    def use(self, var: Var) -> None:
        """``var`` is used here."""

    def buffer_data_use(self, buf: Buffer) -> None:
        """An access to a buffer that is not declared in scope: its data var is used."""
        self.use(buf.data)

    # scopes --------------------------------------------------------------------------------
    def scoped(self, defs: list[Var], body: Callable[[], Any]) -> None:
        """Define ``defs``, run ``body``, end their scope."""
        for v in defs:
            self.define(v)
        body()
        for v in reversed(defs):
            self.undefine(v)

    def visit_stmt(self, stmt: S.Stmt) -> None:
        self.path.append(stmt)
        outer = self.chain
        self.chain = (stmt, outer)
        try:
            super().visit_stmt(stmt)
        finally:
            self.path.pop()
            self.chain = outer

    def visit_var_(self, op: Var) -> None:
        self.use(op)

    # buffers -------------------------------------------------------------------------------
    def use_buffer(self, buf: Buffer) -> None:
        """An access to ``buf``: fine when declared, else its vars are uses (TVM's
        ``HandleUse(Buffer)``)."""
        if id(buf) in self.declared:
            return
        self.buffer_data_use(buf)
        for e in (*buf.shape, *buf.strides):
            self.visit_expr(e)

    def bind_buffer(self, buf: Buffer, mode: str) -> list[Var]:
        """Declare ``buf`` and return the Vars it defines, by ``mode``: ``"alloc"``
        (alloc_buffers: its data var; shape/strides are uses), ``"match"`` (buffer_map,
        match_buffers: data var and the not-yet-defined Vars of shape/strides/elem_offset),
        ``"decl"`` (DeclBuffer: nothing; data var and shape are uses, as in TVM)."""
        self.declared.add(id(buf))
        if mode == "decl":
            self.use(buf.data)
        defs = [] if mode == "decl" else [buf.data]
        if mode != "match":
            for e in (*buf.shape, *buf.strides):
                self.visit_expr(e)
            return defs
        for e in (*buf.shape, *buf.strides, buf.elem_offset):
            if isinstance(e, Var) and not self.is_defined(e) and not any(e is d for d in defs):
                defs.append(e)
        return defs

    def is_defined(self, var: Var) -> bool:  # pylint: disable=unused-argument
        """Whether ``var`` is in scope (subclasses that track scopes override this)."""
        return False

    # statements ----------------------------------------------------------------------------
    def visit_for_(self, op: S.For) -> None:
        self.visit_expr(op.min)
        self.visit_expr(op.extent)
        if op.step is not None:
            self.visit_expr(op.step)
        self.scoped([op.loop_var], lambda: self.visit_stmt(op.body))

    def visit_let_stmt_(self, op: S.LetStmt) -> None:
        self.visit_expr(op.value)
        self.scoped([op.var], lambda: self.visit_stmt(op.body))

    def visit_let_(self, op: Let) -> None:
        self.visit_expr(op.value)
        prev = self.let_values.get(id(op.var))
        if prev is not None and expr_deep_equal(prev, op.value):
            self.visit_expr(op.body)  # TVM's weak SSA: same var re-bound to the same value
            return
        self.let_values[id(op.var)] = op.value
        self.scoped([op.var], lambda: self.visit_expr(op.body))

    def visit_allocate_(self, op: S.Allocate) -> None:
        for e in (*op.extents, op.condition):
            self.visit_expr(e)
        self.scoped([op.buffer_var], lambda: self.visit_stmt(op.body))

    def visit_allocate_const_(self, op: S.AllocateConst) -> None:
        for e in op.extents:
            self.visit_expr(e)
        self.scoped([op.buffer_var], lambda: self.visit_stmt(op.body))

    def visit_decl_buffer_(self, op: S.DeclBuffer) -> None:
        self.bind_buffer(op.buffer, "decl")
        self.visit_stmt(op.body)
        self.declared.discard(id(op.buffer))

    def visit_attr_stmt_(self, op: S.AttrStmt) -> None:
        iv = op.node
        if op.attr_key in ("thread_extent", "virtual_thread") and isinstance(iv, IterVar) \
                and not self.is_defined(iv.var):
            self.visit_expr(op.value)
            self.scoped([iv.var], lambda: self.visit_stmt(op.body))
            return
        node = op.node
        if op.attr_key == "buffer_bind_scope" and isinstance(node, (list, tuple)) \
                and len(node) == 2 and all(isinstance(b, Buffer) for b in node):
            # T.attr([view, buffer], "buffer_bind_scope", ...) defines the view, its data var
            # and its undefined symbolic vars, as a match_buffer does (TVM's
            # TIRVisitorWithPath); the viewed buffer is a use
            view, orig = node
            self.use_buffer(orig)
            self.visit_expr(op.value)
            defs = self.bind_buffer(view, "match")
            self.scoped(defs, lambda: self.visit_stmt(op.body))
            self.declared.discard(id(view))
            return
        super().visit_attr_stmt_(op)

    def visit_buffer_realize_(self, op: S.BufferRealize) -> None:
        # T.realize of a buffer whose data var is not defined yet allocates it (TVM's
        # WithDefIfUndefined); on a defined buffer it only annotates the region
        self.visit_expr(op.condition)
        for r in op.bounds:
            self.visit_expr(r.min)
            self.visit_expr(r.extent)
        defs = [] if self.is_defined(op.buffer.data) else [op.buffer.data]
        self.scoped(defs, lambda: self.visit_stmt(op.body))

    def visit_buffer_store_(self, op: S.BufferStore) -> None:
        self.use_buffer(op.buffer)
        super().visit_buffer_store_(op)

    def visit_buffer_load_(self, op: Any) -> None:
        self.use_buffer(op.buffer)
        super().visit_buffer_load_(op)

    def visit_block_(self, op: S.Block) -> None:
        for iv in op.iter_vars:
            if iv.dom is not None:
                self.visit_expr(iv.dom.min)
                self.visit_expr(iv.dom.extent)
        defs = [iv.var for iv in op.iter_vars]
        self.scoped(defs, lambda: self._block_inner(op))

    def _block_inner(self, op: S.Block) -> None:
        defs: list[Var] = []
        for buf in op.alloc_buffers:
            defs += self.bind_buffer(buf, "alloc")
        for m in op.match_buffers:
            self._visit_region(m.source)
            defs += self.bind_buffer(m.buffer, "match")
        self.scoped(defs, lambda: self._block_body(op))
        for buf in (*op.alloc_buffers, *(m.buffer for m in op.match_buffers)):
            self.declared.discard(id(buf))

    def _block_body(self, op: S.Block) -> None:
        for region in (*op.reads, *op.writes):
            self._visit_region(region)
        if op.init is not None:
            self.visit_stmt(op.init)
        self.visit_stmt(op.body)

    def _visit_region(self, br: S.BufferRegion) -> None:
        for r in br.region:
            self.visit_expr(r.min)
            self.visit_expr(r.extent)

    def visit_reduce_(self, op: Any) -> None:
        for iv in op.axis:
            self.visit_expr(iv.dom.min)
            self.visit_expr(iv.dom.extent)

        def inner() -> None:
            for e in (*op.source, *op.init, op.condition):
                self.visit_expr(e)
        self.scoped([iv.var for iv in op.axis], inner)

    def visit_func(self, func: PrimFunc) -> None:
        """Walk a PrimFunc: params and buffer_map are definitions for the body."""
        defs = list(func.params)
        for buf in func.buffer_map.values():
            defs += [v for v in self.bind_buffer(buf, "match")
                     if not any(v is d for d in defs)]
        self.scoped(defs, lambda: self.visit_stmt(func.body))


# ------------------------------------------------------------------------------ undefined_vars
class _UndefinedVars(DefUseVisitor):
    def __init__(self, defs: Iterable[Var]) -> None:
        super().__init__()
        self.defined: set[int] = {id(v) for v in defs}
        self.undefined: list[Var] = []
        self.seen: set[int] = set()

    # the statement path is not read here: statements are dispatched without keeping it
    visit_stmt = StmtExprVisitor.visit_stmt

    def define(self, var: Var) -> None:
        self.defined.add(id(var))

    def use(self, var: Var) -> None:
        if id(var) not in self.defined and id(var) not in self.seen:
            self.seen.add(id(var))
            self.undefined.append(var)


def has_block(body: S.Stmt) -> bool:
    """Whether ``body`` holds a ``Block`` (or ``BlockRealize``); the walk stops at the first and
    skips expressions. TVM has no public function for it (its passes test ``ContainsNode<
    BlockNode>`` in C++); here it decides e.g. whether tirx prints ``s_tir=True``."""
    found = [False]

    def visit(n: Any) -> bool:
        if isinstance(n, (S.Block, S.BlockRealize)):
            found[0] = True
        return not found[0] and not isinstance(n, PrimExpr)
    pre_order_visit(body, visit)
    return found[0]


def undefined_vars(node: Any, defs: Iterable[Var] = (),
                   declared: Iterable[Buffer] = ()) -> list[Var]:
    """The Vars used in ``node`` but defined neither inside it nor in ``defs``, in first-use
    order (mirrors ``tvm.tir.analysis.undefined_vars``).

    ``node`` is a Stmt or PrimExpr. As in TVM, accessing a buffer that is not declared inside
    ``node`` (nor in ``declared``, buffers whose ``DeclBuffer`` encloses ``node``) uses its
    data var and the vars of its shape and strides, and a definition stays visible after its
    scope ends. Differences: block iter vars, alloc_buffers and match_buffers count as
    definitions, and a var defined twice is not an error.
    """
    v = _UndefinedVars(defs)
    v.declared.update(id(b) for b in declared)
    v(node)
    return v.undefined


# --------------------------------------------------------------------------- scope checking
class _ScopeChecker(DefUseVisitor):
    """Scoped definitions; reports uses out of scope and repeated definitions."""

    def __init__(self, block_vars: dict[int, str]) -> None:
        super().__init__()
        # var id -> the statement path where it was defined, a DefUseVisitor.chain (rendered by
        # _where for a message only: a definition costs nothing, not a string)
        self.in_scope: dict[int, Any] = {}
        self.ever: dict[int, Any] = {}
        self.block_vars = block_vars
        self.threads: set[int] = set()
        self.error: str | None = None

    def is_defined(self, var: Var) -> bool:
        return id(var) in self.in_scope

    def where(self) -> str:
        """The current statement path, e.g. ``For(i) > Block(C) > BufferStore(C)``."""
        return _where(self.path)

    def fail(self, message: str) -> None:
        """Record the first error."""
        if self.error is None:
            self.error = f"TIR is ill-formed: {message} (at {self.where()})"

    def visit_attr_stmt_(self, op: S.AttrStmt) -> None:
        if op.attr_key in ("thread_extent", "virtual_thread") and isinstance(op.node, IterVar):
            self.threads.add(id(op.node.var))
        super().visit_attr_stmt_(op)

    def define(self, var: Var) -> None:
        key = id(var)
        if key in self.threads and key not in self.in_scope:
            self.in_scope[key] = self.ever[key] = self.chain  # launch_thread may repeat
        elif key in self.in_scope:
            self.fail(f"variable {var.name_hint!r} is defined again inside its own scope "
                      f"(first defined at {_where(_unchain(self.in_scope[key]))})")
        elif key in self.ever:
            self.fail(f"variable {var.name_hint!r} is defined more than once "
                      f"(first defined at {_where(_unchain(self.ever[key]))})")
        self.in_scope[key] = self.ever[key] = self.chain

    def undefine(self, var: Var) -> None:
        self.in_scope.pop(id(var), None)

    def use(self, var: Var) -> None:
        if id(var) in self.in_scope:
            return
        block = self.block_vars.get(id(var))
        if block is not None:
            self.fail(f"block iter var {var.name_hint!r} of block {block!r} is used outside "
                      "its block")
        else:
            self.fail(f"variable {var.name_hint!r} is used but not defined")

    def buffer_data_use(self, buf: Buffer) -> None:
        if id(buf.data) not in self.in_scope:
            self.fail(f"buffer {buf.name!r} is used but neither declared nor bound to a "
                      f"defined data var ({buf.data.name_hint!r})")

    def visit_func(self, func: PrimFunc) -> None:
        for param, buf in func.buffer_map.items():
            if not param.dtype.is_handle():
                self.fail(f"param {param.name_hint!r} has type {param.dtype}, but buffer "
                          f"{buf.name!r} is matched to it: T.match_buffer takes a T.handle "
                          "param")
        super().visit_func(func)

    def visit_assert_stmt_(self, op: S.AssertStmt) -> None:
        if not isinstance(op.message, PrimExpr):
            self.fail(f"the message of an assert is a {type(op.message).__name__}, not a "
                      "string")
            return
        super().visit_assert_stmt_(op)

    def bind_buffer(self, buf: Buffer, mode: str) -> list[Var]:
        for e in buf.shape:  # a shape is integers (TVM prints a later-defined var as a string)
            dt = getattr(e, "dtype", None)
            if dt is None or not (dt.is_int() or dt.is_uint()):
                value = getattr(e, "value", None)
                what = f"the string {value!r}" if isinstance(value, str) else type(e).__name__
                self.fail(f"buffer {buf.name!r} has a shape dimension that is not an integer "
                          f"expression: {what} of type {dt}")
        return super().bind_buffer(buf, mode)


def _unchain(chain: Any) -> list[S.Stmt]:
    """The statements of a :attr:`DefUseVisitor.chain`, outermost first."""
    out = []
    while chain is not None:
        out.append(chain[0])
        chain = chain[1]
    return out[::-1]


def _where(path: Any) -> str:
    """The statements of ``path`` as ``For(i) > Block(C) > BufferStore(C)``; a path of more than
    12 statements (deep IR built by program) keeps its 4 outermost and 6 innermost."""
    path = list(path)
    if len(path) > 12:
        return " > ".join([describe(s) for s in path[:4]] + [f"... ({len(path) - 10} more)"]
                          + [describe(s) for s in path[-6:]])
    return " > ".join(describe(s) for s in path) or "<function signature>"


def describe(stmt: S.Stmt) -> str:
    """A short label of a statement for messages: ``For(i)``, ``Block(C)``, ``BufferStore(A)``
    (no TVM counterpart; TVM prints an ``ObjectPath``)."""
    label = _LABELS.get(type(stmt))
    return f"{type(stmt).__name__}({label(stmt)})" if label else type(stmt).__name__


_LABELS: dict[type, Callable[[Any], str]] = {
    S.For: lambda s: s.loop_var.name_hint,
    S.LetStmt: lambda s: s.var.name_hint,
    S.Block: lambda s: s.name_hint,
    S.BlockRealize: lambda s: s.block.name_hint,
    S.BufferStore: lambda s: s.buffer.name,
    S.Allocate: lambda s: s.buffer_var.name_hint,
    S.DeclBuffer: lambda s: s.buffer.name,
    S.AttrStmt: lambda s: s.attr_key,
}


def _block_iter_vars(func: PrimFunc) -> dict[int, str]:
    out: dict[int, str] = {}

    def visit(n: Any) -> bool:
        if isinstance(n, S.Block):
            out.update((id(iv.var), n.name_hint) for iv in n.iter_vars)
        return True
    pre_order_visit(func.body, visit)
    return out


def _funcs(node: Any) -> list[tuple[str, PrimFunc]]:
    if isinstance(node, PrimFunc):
        return [(str(node.attrs.get("global_symbol", "main")), node)]
    if isinstance(node, IRModule):
        return [(g.name_hint, f) for g, f in node.items() if isinstance(f, PrimFunc)]
    raise TypeError(f"expected a PrimFunc or IRModule, got {type(node).__name__}")


@deep_walk("verify_well_formed")
def verify_well_formed(node: PrimFunc | IRModule, assert_mode: bool = True) -> bool:
    """Check that a PrimFunc (or every PrimFunc of an IRModule) is well formed (mirrors
    ``tvm.tir.analysis.verify_well_formed``): every used var is defined in an enclosing scope,
    block iter vars are not used outside their block, no var is defined twice, and every
    accessed buffer is declared or bound to a defined data var.

    Returns:
        True when well formed; False on a problem when ``assert_mode`` is False.

    Raises:
        ValueError: (``assert_mode``) naming the var and the statement path, e.g. ``TIR is
        ill-formed: variable 'k' is used but not defined (at For(i) > BufferStore(C))``.
    """
    for name, func in _funcs(node):
        checker = _ScopeChecker(_block_iter_vars(func))
        checker.visit_func(func)
        if checker.error is not None:
            if assert_mode:
                raise ValueError(f"in function {name!r}: {checker.error}")
            return False
    return True


class _SSAChecker(_ScopeChecker):
    def use(self, var: Var) -> None:
        pass

    def buffer_data_use(self, buf: Buffer) -> None:
        pass


@deep_walk("verify_ssa")
def verify_ssa(func: PrimFunc) -> bool:
    """Whether every Var of ``func`` is defined at most once (mirrors
    ``tvm.tir.analysis.verify_ssa``); Let expressions may re-bind a var to the same value."""
    checker = _SSAChecker({})
    checker.visit_func(func)
    return checker.error is None


# ------------------------------------------------------------------------------ deep equality
def expr_deep_equal(lhs: Any, rhs: Any) -> bool:
    """Structural equality without variable mapping (mirrors ``tvm.tir.analysis.expr_deep_equal``
    / ``ExprDeepEqual``): Vars and Buffers must be the same objects; other nodes compare field by
    field (``span`` and name hints ignored); dtypes, numbers and strings by value."""
    if lhs is rhs:
        return True
    if isinstance(lhs, (Var, Buffer)) or isinstance(rhs, (Var, Buffer)):
        return False
    if isinstance(lhs, Node) or isinstance(rhs, Node):
        return type(lhs) is type(rhs) and all(
            expr_deep_equal(getattr(lhs, f.name), getattr(rhs, f.name))
            for f in node_fields(type(lhs)) if field_kind(f) != "ignore")
    if isinstance(lhs, (tuple, list)) and isinstance(rhs, (tuple, list)):
        return len(lhs) == len(rhs) and all(map(expr_deep_equal, lhs, rhs))
    if isinstance(lhs, dict) and isinstance(rhs, dict):
        return lhs.keys() == rhs.keys() and all(expr_deep_equal(lhs[k], rhs[k]) for k in lhs)
    return type(lhs) is type(rhs) and bool(lhs == rhs)


#: the combiners of a reduction update TVM recognises without a registered reducer
_REDUCERS = (Add, Mul, Min, Max)


def match_reduction_update(block: S.Block) -> "tuple[type, S.BufferStore, Any, Any] | str":
    """``(op class, update store, rhs, init value)`` of a reduction block whose init and body are
    single stores, the body ``B[i] = B[i] op rhs`` (either operand order; op one of ``+ * min
    max``), as TVM's ``GetReducerAndCombinerLhsRhs`` matches the builtin reducers; otherwise the
    reason it is not one (a string, for the caller's error)."""
    from ..ir import structural_equal  # pylint: disable=import-outside-toplevel

    store, init = block.body, block.init
    if not isinstance(store, S.BufferStore) or not isinstance(init, S.BufferStore):
        return "the init and the body must each be a single BufferStore"
    value = store.value
    if isinstance(value, _REDUCERS):
        for lhs, rhs in ((value.a, value.b), (value.b, value.a)):
            if isinstance(lhs, BufferLoad) and lhs.buffer is store.buffer and all(
                    x is y or structural_equal(x, y, map_free_vars=False)
                    for x, y in zip(lhs.indices, store.indices)):
                return type(value), store, rhs, init.value
    return "the update is not `B[...] = B[...] op rhs` with op one of +, *, min, max"


__all__ = ["DefUseVisitor", "undefined_vars", "verify_well_formed", "verify_ssa",
           "expr_deep_equal", "describe", "match_reduction_update"]
