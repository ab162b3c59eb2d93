"""``UnrollAndJam``: run several independent reduction chains side by side (no TVM counterpart;
the transformation of LLVM's ``LoopUnrollAndJam`` pass, applied to the TIR shape it pays on).

A reduction written one output at a time is a chain of dependent adds: ``B[i] = B[i] + A[i, k]``
over ``k`` waits for the previous add on every step (4 cycles of latency where the core could
start two adds per cycle), and without fast-math flags LLVM may not reorder it. Unrolled-and-
jammed, ``F`` outputs advance together::

    for i in T.parallel(4096):             for i_o in T.parallel(512):
        for k in range(4096):                  for k in range(4096):
            if k == 0: B[i] = 0.0      -->          b = i_o * 8;  a = i_o * 8 * 4096 + k
            B[i] = B[i] + A[i, k]                  if k == 0: B[b] = 0.0 ... B[b + 7] = 0.0
                                                   B[b] = B[b] + A[a]
                                                   ...
                                                   B[b + 7] = B[b + 7] + A[a + 7 * 4096]

Every output still sees exactly its own operations in its own order, so results are bitwise
those of the plain loop; only operations on different outputs interleave. The rewrite applies to
a serial or parallel loop ``L`` (constant extent divisible by 8, 4 or 2 — the largest is taken)
whose body is a perfect nest of serial loops (extents and bindings free of ``L``'s variable)
around stores and ``if`` statements without calls (``exp``, ``log``... have long latencies of
their own and would be expanded ``F`` times), when

- every buffer stored to is stored at one index, free of the nest's variables, affine in ``L``'s
  variable with a non-zero constant stride (so different ``L`` iterations write different
  elements), and loaded only at that index;
- some store reads the element it writes (an accumulation: otherwise nothing is gained);
- buffers that are stored to cannot alias what is read (``tir.noalias`` on the function, or
  buffers the function allocates itself).

It runs after ``CommonSubexprElimTIR`` (CSE searching the copies doubled conv2d's lowering) and
writes the ``F`` copies out itself: statement by statement (an ``if`` whose condition does not
change between copies — a reduction's init — guards all its copies once), each index affine in
``L``'s variable as one shared ``jam_base_N`` binding plus a constant per copy. The nest's loops
carry ``llvm.loop.unroll.disable`` and ``llvm.loop.vectorize.enable = false`` (``NEST_HINTS``).
Config ``"tirkit.disable_unroll_and_jam": True`` turns the pass off. Measured (2 threads, loaded
2-core VM, interleaved): conv2d_nchw 246 -> 53 ms, rowsum 23.5 -> 8.2 ms, softmax 40 -> 34 ms
(its row max; the exp-sum has a call); a conv2d build costs 6% more instructions (callgrind).
"""
from __future__ import annotations

from typing import Any, cast

from tirkit.arith import Analyzer
from tirkit.ir.expr import IntImm, PrimExpr
from tirkit.ir.op import CallEffectKind
from tirkit.tir import op as tir_op
from tirkit.tir import stmt as S
from tirkit.tir.analysis import expr_deep_equal
from tirkit.tir.expr import BufferLoad, Call, Var
from tirkit.tir.function import PrimFunc
from tirkit.tir.stmt_functor import (StmtExprMutator, StmtMutator, post_order_visit,
                                     pre_order_visit, substitute)

from ..transform import prim_func_pass, register_pass
from ._opt_common import side_effect, uses_var, with_body
from .canonicalize_loop import require_trivial_step

#: annotations of the jammed nest's loops, which LLVM's code generator turns into loop
#: properties: the copies are the unrolling (LLVM unrolling conv2d's 3-step ry/rx loops around
#: them made the build 31% more instructions; disabled, 6%), and the chains cannot be vectorized
#: (no reassociation), so the loop vectorizer is told so instead of analysing the copies
NEST_HINTS = {"llvm.loop.unroll.disable": True, "llvm.loop.vectorize.enable": False}

#: the unroll factors tried, largest first (8 chains cover a 4-cycle add latency at 2 per cycle)
FACTORS = (8, 4, 2)
#: the most stores a jammed body may hold (it is copied ``F`` times)
MAX_STORES = 4


def _nest(loop: S.For) -> tuple[list[S.LetStmt], list[S.Stmt], S.Stmt] | None:
    """``(head, chain, body)``: the ``LetStmt`` bindings directly under ``loop`` (CSE puts the
    loop variable's uses there), then the perfect nest of serial loops with the bindings between
    them, and the innermost body; None when there is no such nest."""
    head: list[S.LetStmt] = []
    node = loop.body
    while isinstance(node, S.LetStmt):
        head.append(node)
        node = node.body
    chain: list[S.Stmt] = []
    while isinstance(node, (S.For, S.LetStmt)):
        if isinstance(node, S.For) and (node.kind != S.ForKind.SERIAL or node.annotations):
            return None
        chain.append(node)
        node = node.body
    if not any(isinstance(n, S.For) for n in chain):
        return None
    return head, chain, node


def _leaves(body: S.Stmt) -> list[S.BufferStore] | None:
    """The stores of ``body`` when it is made only of stores, ``if`` statements with pure
    conditions and sequences; None otherwise (a ``DeclBuffer`` would be declared once per
    copy)."""
    stores: list[S.BufferStore] = []
    stack = [body]
    while stack:
        node = stack.pop()
        if isinstance(node, S.SeqStmt):
            stack.extend(node.seq)
        elif isinstance(node, S.IfThenElse):
            if side_effect(node.condition) > CallEffectKind.READ_STATE:
                return None
            stack.append(node.then_case)
            if node.else_case is not None:
                stack.append(node.else_case)
        elif isinstance(node, S.BufferStore):
            if node.predicate is not None or side_effect(node.value) > CallEffectKind.READ_STATE:
                return None
            stores.append(node)
        else:
            return None
    return stores


#: id(index) -> (index, var, its stride in var): what :func:`_stride` found, kept for a pass run
#: (the legality check and the rewrite ask for the same store indices)
Strides = dict[int, tuple[PrimExpr, Var, "int | None"]]


def _stride(index: PrimExpr, var: Var, analyzer: Analyzer,
            memo: Strides | None = None) -> int | None:
    """The constant ``c`` with ``index(var + 1) - index(var) == c`` when ``index`` is affine in
    ``var``, else None (looked up in ``memo`` first, and noted there)."""
    if memo is not None:
        hit = memo.get(id(index))
        if hit is not None and hit[0] is index and hit[1] is var:
            return hit[2]
    step = analyzer.simplify(substitute(index, {var: tir_op.add(var, IntImm(var.dtype, 1))})
                             - index)
    out = step.value if isinstance(step, IntImm) and not uses_var(step, lambda v: v is var) \
        else None
    if memo is not None:
        memo[id(index)] = (index, var, out)
    return out


def _jammable(loop: S.For, local: set[Var], noalias: bool, analyzer: Analyzer,
              strides: Strides | None = None
              ) -> tuple[list[S.LetStmt], list[S.Stmt], S.Stmt] | None:
    """The head bindings, nest and innermost body of ``loop`` when unroll-and-jam is legal and
    useful (the strides found are noted in ``strides``)."""
    if loop.kind not in (S.ForKind.SERIAL, S.ForKind.PARALLEL) or loop.annotations:
        return None
    found = _nest(loop)
    if found is None:
        return None
    head, chain, body = found
    var = loop.loop_var
    moving = {id(var)} | {id(let.var) for let in head}  # what changes with the jammed copy
    nest_vars = {id(n.loop_var) for n in chain if isinstance(n, S.For)}
    for n in chain:
        parts = (n.min, n.extent) if isinstance(n, S.For) else (cast(S.LetStmt, n).value,)
        if any(uses_var(e, lambda v: id(v) in moving) for e in parts):
            return None
    stores = _leaves(body)
    if not stores or len(stores) > MAX_STORES:
        return None
    loads: list[BufferLoad] = []
    calls: list[Call] = []
    post_order_visit(body, lambda n: loads.append(n) if isinstance(n, BufferLoad)
                     else calls.append(n) if isinstance(n, Call) else None)
    if calls:  # exp, log...: long latency of their own, and expanded ``factor`` times
        return None
    lets = {let.var: let.value for let in reversed(head)}
    written: dict[Var, PrimExpr] = {}
    for store in stores:
        if len(store.indices) != 1 or store.indices[0].dtype.lanes != 1:
            return None
        index = store.indices[0]
        seen = written.setdefault(store.buffer.data, index)
        if not expr_deep_equal(seen, index):
            return None
        if uses_var(index, lambda v: id(v) in nest_vars):
            return None
        if not _stride(_resolve(index, lets), var, analyzer, strides):
            return None
        if not noalias and store.buffer.data not in local:
            return None
    accumulates = False
    for load in loads:
        stored_at = written.get(load.buffer.data)
        if stored_at is None:
            continue
        if len(load.indices) != 1 or not expr_deep_equal(load.indices[0], stored_at):
            return None
        accumulates = True
    return (head, chain, body) if accumulates else None


def _resolve(expr: Any, lets: dict[Var, PrimExpr]) -> Any:
    """``expr`` with the head bindings substituted (innermost first, so that bindings of
    bindings resolve)."""
    for v, value in lets.items():
        expr = substitute(expr, {v: value})
    return expr


def _factor(loop: S.For) -> int | None:
    if not isinstance(loop.min, IntImm) or not isinstance(loop.extent, IntImm):
        return None
    return next((f for f in FACTORS if loop.extent.value % f == 0 and loop.extent.value > f),
                None)


def unroll_and_jam(loop: S.For, head: list[S.LetStmt], chain: list[S.Stmt], body: S.Stmt,
                   factor: int, analyzer: Analyzer | None = None,
                   strides: Strides | None = None) -> S.Stmt:
    """``loop`` split by ``factor``: the outer part keeps ``loop``'s kind, the nest ``chain``
    goes inside it, and each statement of the innermost body becomes ``factor`` copies, one per
    inner iteration (explicitly unrolled, ``head`` bindings substituted); an ``if`` whose
    condition does not change between copies (a reduction's init) guards all its copies once.
    ``strides`` holds strides already found (:func:`_jammable` notes them), reused here."""
    var = loop.loop_var
    outer = Var(var.name_hint + "_o", var.dtype)
    lets = {let.var: let.value for let in reversed(head)}
    values = []
    for i in range(factor):
        value = tir_op.add(tir_op.multiply(outer, IntImm(var.dtype, factor)),
                           IntImm(var.dtype, i))
        if not (isinstance(loop.min, IntImm) and loop.min.value == 0):
            value = tir_op.add(loop.min, value)
        values.append(value)
    moving = {id(var)} | {id(v) for v in lets}
    analyzer = analyzer or Analyzer()

    offsets = _Offsets(var, values, analyzer, strides)

    def copies(stmt: S.Stmt) -> list[S.Stmt]:
        if isinstance(stmt, S.SeqStmt):
            return [c for s in stmt.seq for c in copies(s)]
        if (isinstance(stmt, S.IfThenElse) and stmt.else_case is None
                and not uses_var(stmt.condition, lambda v: id(v) in moving)):
            return [stmt.with_changes(then_case=S.SeqStmt.flatten(*copies(stmt.then_case)))]
        resolved = _resolve(stmt, lets)
        return [offsets.copy(resolved, i) for i in range(factor)]

    new: S.Stmt = S.SeqStmt.flatten(*copies(body))
    for base, value in reversed(offsets.bases):
        new = S.LetStmt(base, value, new)
    for n in reversed(chain):
        new = n.with_changes(body=new)
        if isinstance(n, S.For):
            new = new.with_changes(annotations=dict(NEST_HINTS))
    extent = cast(IntImm, loop.extent).value  # (_factor checked)
    return S.For(outer, IntImm(var.dtype, 0), IntImm(var.dtype, extent // factor),
                 loop.kind, new, span=loop.span)


class _Offsets(StmtExprMutator):
    """Copy ``i`` of a statement: a buffer index affine in ``var`` (stride ``s``) becomes
    ``base + i * s`` with ``base`` (the index of copy 0) bound once for all copies, so that LLVM
    sees the copies' addresses as one pointer plus constants; any other use of ``var`` takes
    copy ``i``'s value."""

    def __init__(self, var: Var, values: list[PrimExpr], analyzer: Analyzer,
                 strides: Strides | None = None) -> None:
        super().__init__()
        self.var, self.values, self.analyzer = var, values, analyzer
        self.stride_memo = strides
        self.bases: list[tuple[Var, PrimExpr]] = []
        self.strides: list[int] = []
        # id(index) -> (index, its base and stride): the index is kept so that its id cannot
        # be reused by another expression while the memo lives
        self.memo: dict[int, tuple[PrimExpr, tuple[Var, int] | None]] = {}
        self.i = 0
        self._values: dict[int, PrimExpr] = {}

    def copy(self, stmt: S.Stmt, i: int) -> S.Stmt:
        """Copy ``i`` of ``stmt`` (its bases are added to :attr:`bases`); ``var`` is replaced
        by copy ``i``'s value as the visit goes (what a ``substitute`` of the visited copy
        did, in a second walk)."""
        self.i = i
        return self.visit_stmt(stmt)

    def _value(self) -> PrimExpr:
        """What ``substitute`` puts for ``var`` in copy :attr:`i` (made once per copy)."""
        got = self._values.get(self.i)
        if got is None:
            got = self._values[self.i] = substitute(self.var, {self.var: self.values[self.i]})
        return got

    def visit_var_(self, op: Var) -> PrimExpr:
        """``var`` is copy :attr:`i`'s value; other vars stay."""
        return self._value() if op is self.var else op

    def _index(self, index: PrimExpr) -> PrimExpr:
        found = self.memo.get(id(index))
        if found is None:  # every copy visits the same index objects: the search is made once
            found = self.memo[id(index)] = (index, self._base(index))
        base = found[1]
        if base is None:  # (substituted as it is: its loads keep their indices)
            return substitute(index, {self.var: self.values[self.i]})
        return _plus(base[0], self.i * base[1])

    def _base(self, index: PrimExpr) -> tuple[Var, int] | None:
        """``(base, stride)`` of an index affine in ``var``, or None to substitute it as is."""
        var = self.var
        if not uses_var(index, lambda v: v is var) or side_effect(index) > CallEffectKind.PURE:
            return None
        first = substitute(index, {var: self.values[0]})
        for k, (base, value) in enumerate(self.bases):
            if expr_deep_equal(first, value):
                return base, self.strides[k]
        stride = _stride(index, var, self.analyzer, self.stride_memo)
        if stride is None:
            return None
        base = Var(f"jam_base_{len(self.bases)}", index.dtype)
        self.bases.append((base, first))
        self.strides.append(stride)
        return base, stride

    def visit_buffer_load_(self, op: BufferLoad) -> PrimExpr:
        """A flat load's index as base plus offset."""
        if len(op.indices) != 1:
            return super().visit_buffer_load_(op)
        if op.predicate is not None:
            return op.with_changes(indices=[self._index(op.indices[0])],
                                   predicate=substitute(op.predicate, {self.var: self._value()}))
        return op.with_changes(indices=[self._index(op.indices[0])])

    def visit_buffer_store_(self, op: S.BufferStore) -> S.Stmt:
        """A flat store's index as base plus offset, its value rewritten."""
        if len(op.indices) != 1:
            return super().visit_buffer_store_(op)
        return op.with_changes(value=self.visit_expr(op.value),
                               indices=[self._index(op.indices[0])])


def _plus(base: Var, offset: int) -> PrimExpr:
    return tir_op.add(base, IntImm(base.dtype, offset)) if offset else base


class _Jammer(StmtMutator):
    """Unroll-and-jam every legal loop, outermost first (a jammed loop is not visited again)."""

    def __init__(self, local: set[Var], noalias: bool) -> None:
        super().__init__()
        self.local, self.noalias, self.analyzer = local, noalias, Analyzer()
        self.strides: Strides = {}

    def visit_for_(self, op: S.For) -> S.Stmt:
        """``op`` unrolled-and-jammed when legal and useful, else its body visited."""
        require_trivial_step(op, "UnrollAndJam")
        factor = _factor(op)
        found = _jammable(op, self.local, self.noalias, self.analyzer, self.strides) \
            if factor else None
        if found is None or factor is None:
            return super().visit_for_(op)
        return unroll_and_jam(op, *found, factor, self.analyzer, self.strides)


def _allocated(func: PrimFunc) -> set[Var]:
    local: set[Var] = set()

    def visit(node: Any) -> bool:
        if isinstance(node, PrimExpr):
            return False  # an Allocate is a statement, never inside an expression: not walked
        if isinstance(node, S.Allocate):
            local.add(node.buffer_var)
        return True
    pre_order_visit(func.body, visit)
    return local


@register_pass("UnrollAndJam")
def UnrollAndJam():  # pylint: disable=invalid-name
    """The pass interleaving independent reduction chains (see the module docstring)."""
    @prim_func_pass("UnrollAndJam", opt_level=2)
    def run(func, mod, ctx):  # pylint: disable=unused-argument
        if ctx.get("tirkit.disable_unroll_and_jam", False):
            return func
        noalias = bool(func.attrs.get("tir.noalias", False)) if func.attrs else False
        return with_body(func, _Jammer(_allocated(func), noalias)(func.body))
    return run
