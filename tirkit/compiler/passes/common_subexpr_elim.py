"""``CommonSubexprElimTIR``: bind repeated pure computations to ``cse_var_<n>`` lets (mirrors
``tvm.tir.transform.CommonSubexprElimTIR``, ``src/tir/transforms/common_subexpr_elim.cc``,
TVM v0.20's algorithm; also registered as ``CommonSubexprElim``, TVM 0.27's name).

At each statement, the maximal eligible computations it does are counted (eligible: not a
constant, var, Ramp or Broadcast, and free of loads and calls; an ``if`` counts what both
branches do). From the most complex down, a computation seen at least twice whose vars are all
in scope is bound by a ``LetStmt`` wrapped around the statement and replaced everywhere in it;
one seen once hands its direct sub-computations down to be considered with its count. The
pass then recurses into the statement's children with their definitions in scope.
"""
from __future__ import annotations

from bisect import bisect_right
from typing import Any

from tirkit.ir.expr import PrimExpr
from tirkit.tir import expr as E
from tirkit.tir import stmt as S
from tirkit.tir.function import PrimFunc
from tirkit.tir.stmt_functor import StmtExprMutator

from ..transform import register_pass, prim_func_pass
from ._opt_common import with_body
from ._cse_analysis import (MAX_HOIST_DEPTH, Table, _ALIVE, _BINARY, _DONE, _IN, _INFO, _MISS,
                            _NOT_ELIGIBLE, _binds_nothing, _distinct_computations, _free_vars,
                            _info, _key, _leaf_keys, _minimal_free_sets, _nesting, _tree_size,
                            complexity, computations_done_by, computations_in, direct_subexprs,
                            is_eligible, clear_memos)

# (public names of the analysis, importable from here as before)
__all__ = ["CommonSubexprElimTIR", "CommonSubexprElim", "CommonSubexpressionEliminator", "replace",
           "Table", "complexity", "computations_done_by", "computations_in", "direct_subexprs",
           "is_eligible", "MAX_HOIST_DEPTH"]


class _Replace(StmtExprMutator):
    def __init__(self, key: Any, size: int, var: E.Var) -> None:
        self.key, self.size, self.var = key, size, var

    def visit_stmt(self, stmt: S.Stmt) -> S.Stmt:
        """A leaf statement a previous replacement left as it was gets the set of its
        expressions' keys; the next replacements skip it unless its set holds their target.
        Eliminating k computations from a sequence of n stores then costs about k * n set
        lookups instead of k walks of every store (TVM walks them all)."""
        keys = _IN.get(id(stmt), _MISS)
        if keys is not _MISS:
            if keys is not None and self.key not in keys:  # type: ignore[operator]
                return stmt
            return super().visit_stmt(stmt)
        out = super().visit_stmt(stmt)
        if out is stmt:
            _IN[id(stmt)] = _leaf_keys(stmt)
            _ALIVE.append(stmt)
        return out

    def visit_expr(self, expr: PrimExpr) -> PrimExpr:
        size = (_INFO.get(id(expr)) or _info(expr))[0]
        if size < self.size:  # too small to be or hold the target
            return expr
        if size == self.size and is_eligible(expr) and _key(expr) == self.key:
            return self.var
        if type(expr) in _BINARY:
            return _visit_operands(self, expr)
        return super().visit_expr(expr)


class _ReplaceAll(_Replace):
    """Every computation of ``targets`` (key -> var) replaced by its var in one top-down walk:
    the statement-level replacements of one :meth:`CommonSubexpressionEliminator._eliminate`,
    done together instead of one walk per eliminated computation. The same IR as replacing
    them one after the other, most complex first: no target contains an earlier one (an entry
    holding an eliminated computation holds its var, which is not in scope, so it is never
    eliminated at that statement), and replacing a computation by a fresh var keeps distinct
    expressions distinct, so a node equals a target after the earlier replacements exactly when
    it does before them."""

    def __init__(self, targets: dict[int, E.Var], sizes: set[int]) -> None:
        super().__init__(None, min(sizes), None)  # type: ignore[arg-type]
        self.targets = targets
        self.sizes = frozenset(sizes)
        #: id of an expression this walk rebuilt (not replaced by a var) -> the rebuilt one
        self.rebuilt: dict[int, PrimExpr] = {}

    def visit_stmt(self, stmt: S.Stmt) -> S.Stmt:
        keys = _IN.get(id(stmt), _MISS)
        if keys is not _MISS:
            if keys is not None and keys.isdisjoint(self.targets):  # type: ignore[attr-defined]
                return stmt
            out = StmtExprMutator.visit_stmt(self, stmt)
        else:
            out = StmtExprMutator.visit_stmt(self, stmt)
            if out is stmt:
                _IN[id(stmt)] = _leaf_keys(stmt)
                _ALIVE.append(stmt)
                return out
        if out is not stmt:
            table = _DONE.get(id(stmt))
            if table is not None:  # the rewritten statement's table, without walking it
                _DONE[id(out)] = self._rewritten(table)
                _ALIVE.append(out)
        return out

    def _rewritten(self, table: Table) -> Table:
        """The Table :func:`computations_done_by` finds in a statement this walk rewrote,
        from the statement's old ``table``: each computation as rewritten (a maximal
        computation has no eligible ancestor, so the walk reached it, unless it was too small
        to change or in a leaf holding no target), a target dropped (it became a var, which is
        no computation), in the same order with the same counts (a rewriting keeps distinct
        computations distinct, see the class doc; an ``if``'s intersection maps likewise)."""
        out = Table()
        items = out.items
        targets, rebuilt = self.targets, self.rebuilt
        for key, (e, count) in table.items.items():
            if key in targets:
                continue
            new = rebuilt.get(id(e))
            if new is None:
                items[key] = [e, count]
            else:
                out.add(new, count)
        return out

    def visit_expr(self, expr: PrimExpr) -> PrimExpr:
        info = _INFO.get(id(expr)) or _info(expr)
        size = info[0]
        if size < self.size:  # too small to be or hold a target
            return expr
        if size in self.sizes and info[1] and not isinstance(expr, _NOT_ELIGIBLE):
            var = self.targets.get(_key(expr))
            if var is not None:
                return var
        if type(expr) in _BINARY:
            out = _visit_operands(self, expr)
        else:
            out = StmtExprMutator.visit_expr(self, expr)
        if out is not expr:
            self.rebuilt.setdefault(id(expr), out)
        return out


def _visit_operands(mutator: Any, expr: Any) -> Any:
    """A two-operand node with ``mutator`` applied to both operands: what the default
    ``visit_<op>_`` does, without its two calls (``expr`` itself when neither changed)."""
    a, b = expr.a, expr.b
    new_a, new_b = mutator.visit_expr(a), mutator.visit_expr(b)
    if new_a is a and new_b is b:
        return expr
    return type(expr)(new_a, new_b, span=expr.span)


def _bind(result: Any, chosen: list[tuple[E.Var, PrimExpr]], wrap: Any) -> Any:
    """``result`` with the ``chosen`` computations replaced by their vars and wrapped in their
    bindings, the first chosen innermost. The value bound to a var has the later computations
    replaced (TVM replaces them in the lets already made), never an earlier one (it does not
    hold one). One walk (:class:`_ReplaceAll`) for all."""
    every = _ReplaceAll({_key(comp): var for var, comp in chosen},
                        {_tree_size(comp) for _, comp in chosen})
    result = every(result)
    for var, comp in chosen:
        result = wrap(var, StmtExprMutator.visit_expr(every, comp), result)
    return result


def replace(node: Any, target: PrimExpr, var: E.Var) -> Any:
    """``node`` with every occurrence of ``target`` (deep equality) replaced by ``var`` (TVM's
    ``ReplaceSelectedExpr``)."""
    return _Replace(_key(target), _tree_size(target), var)(node)


class CommonSubexpressionEliminator(StmtExprMutator):
    """The mutator behind :func:`CommonSubexprElimTIR` (TVM's
    ``CommonSubexpressionEliminator``); ``context`` holds the vars in scope."""

    def __init__(self, context: list[E.Var]) -> None:
        self.context: set[int] = {id(v) for v in context}
        self.counter = 0

    def _in_context(self, e: PrimExpr) -> bool:
        return _free_vars(e) <= self.context

    def _new_var(self, e: PrimExpr) -> E.Var:
        self.counter += 1
        return E.Var(f"cse_var_{self.counter}", e.dtype, span=e.span)

    def _eliminate(self, result: Any, table: Table, wrap: Any) -> Any:
        # entries: [computation, count, complexity], most complex first; ``index`` finds an
        # entry by key (keys stay unique: a replacement puts a fresh var into what it changes)
        entries = sorted(([e, c, complexity(e)] for e, c in table.items.values()),
                         key=lambda ec: -ec[2])
        index = {_key(entry[0]): entry for entry in entries}
        chosen: list[tuple[E.Var, PrimExpr]] = []
        i = 0
        while i < len(entries):
            comp, count, _ = entries[i]
            if count > 1 and self._in_context(comp):
                var = self._new_var(comp)
                rep = _Replace(_key(comp), _tree_size(comp), var)
                for entry in entries[i + 1:]:  # one mutator for all; a smaller entry is
                    old = entry[0]  # left as it is
                    if _tree_size(old) >= rep.size:
                        new = rep(old)
                        if new is not old:
                            del index[_key(old)]
                            entry[0], entry[2] = new, complexity(new)
                            index[_key(new)] = entry
                chosen.append((var, comp))
            else:
                # until the first binding the entries are sorted (a replacement lowers an
                # entry's complexity in place): an insertion point is then found by bisection
                _insert_sorted(entries, index, direct_subexprs(comp), count, not chosen)
            i += 1
        return _bind(result, chosen, wrap) if chosen else result

    def visit_stmt(self, stmt: S.Stmt) -> S.Stmt:
        if _nesting(stmt) > MAX_HOIST_DEPTH:
            return super().visit_stmt(stmt)
        table = computations_done_by(stmt)
        if _binds_nothing(table) or not self._may_bind(table):
            return super().visit_stmt(stmt)
        result = self._eliminate(stmt, table,
                                 lambda v, e, r: S.LetStmt(v, e, r, span=stmt.span))
        return super().visit_stmt(result)

    def visit_expr(self, expr: PrimExpr) -> PrimExpr:
        if _distinct_computations(expr) is not None:
            return expr  # nothing is done twice in it: no let at it nor under it
        table = Table()
        for c in computations_in(expr):
            table.add(c)
        if not self._may_bind(table):
            return super().visit_expr(expr)
        result = self._eliminate(expr, table, lambda v, e, r: E.Let(v, e, r, span=expr.span))
        return super().visit_expr(result)

    def _may_bind(self, table: Table) -> bool:
        """Whether :meth:`_eliminate` over ``table`` could bind anything here: it binds only
        a computation in context, and every computation it considers is an eligible node
        inside an entry; if one is in context, so is each eligible node below it, down to a
        minimal one (no eligible node below). So when no entry holds a minimal eligible node
        whose free vars are all in context, it binds nothing and leaves the IR as it is (a
        quick answer for the statements above the loops whose vars the computations use)."""
        context = self.context
        for e, _ in table.items.values():
            sets = _minimal_free_sets(e)
            if sets is None:
                return True
            for free in sets:
                if free <= context:
                    return True
        return False

    def _scoped(self, var: E.Var, base: Any, op: Any) -> Any:
        self.context.add(id(var))
        try:
            return base(op)
        finally:
            self.context.discard(id(var))

    def visit_let_stmt_(self, op: S.LetStmt) -> S.Stmt:
        return self._scoped(op.var, super().visit_let_stmt_, op)

    def visit_let_(self, op: E.Let) -> PrimExpr:
        return self._scoped(op.var, super().visit_let_, op)

    def visit_for_(self, op: S.For) -> S.Stmt:
        return self._scoped(op.loop_var, super().visit_for_, op)

    def visit_allocate_(self, op: S.Allocate) -> S.Stmt:
        return self._scoped(op.buffer_var, super().visit_allocate_, op)

    def visit_attr_stmt_(self, op: S.AttrStmt) -> S.Stmt:
        var = getattr(op.node, "var", None)
        if op.attr_key == "thread_extent" and isinstance(var, E.Var):
            return self._scoped(var, super().visit_attr_stmt_, op)
        return super().visit_attr_stmt_(op)


def _insert_sorted(entries: list[list], index: dict[int, list], subs: tuple[PrimExpr, ...],
                   count: int, in_order: bool = False) -> None:
    """Add ``count`` to each of ``subs`` already among ``entries``; insert the others before
    the first less complex entry (TVM's ``InsertVectorToSortedSemanticComputations``).
    ``in_order``: the entries are sorted by decreasing complexity, so that first less complex
    entry is found by bisection (otherwise by a scan: a replaced entry's complexity drops)."""
    for sub in subs:
        key = _key(sub)
        hit = index.get(key)
        if hit is not None:
            hit[1] += count
            continue
        cx = complexity(sub)
        if in_order:
            pos = bisect_right(entries, -cx, key=_neg_complexity)
        else:
            pos = len(entries)
            for k, e in enumerate(entries):
                if e[2] < cx:
                    pos = k
                    break
        entry = [sub, count, cx]
        entries.insert(pos, entry)
        index[key] = entry


def _neg_complexity(entry: list) -> int:
    return -entry[2]


def _context(func: PrimFunc) -> list[E.Var]:
    out = list(func.params)
    for buf in func.buffer_map.values():
        out.extend(v for v in (*buf.shape, *buf.strides, buf.elem_offset, buf.data)
                   if isinstance(v, E.Var))
    return out


def _make_pass(name: str) -> Any:
    @prim_func_pass(name, opt_level=0)
    def run(func, mod, ctx):  # pylint: disable=unused-argument
        eliminator = CommonSubexpressionEliminator(_context(func))
        try:
            body = eliminator(func.body)
        finally:
            clear_memos()
        # a body that got a binding has more let nodes than before: it differs
        if eliminator.counter == 0 and _same(body, func.body):
            return func
        return with_body(func, body)
    return run


def _same(a: S.Stmt, b: S.Stmt) -> bool:
    from tirkit.ir import structural_equal  # pylint: disable=import-outside-toplevel

    return a is b or structural_equal(a, b, map_free_vars=False)


@register_pass("CommonSubexprElimTIR")
def CommonSubexprElimTIR(enable_cse_tir: bool = True, identify_equiv_terms: bool = False):  # pylint: disable=invalid-name
    """The CSE pass (mirrors ``tvm.tir.transform.CommonSubexprElimTIR``). ``identify_equiv_terms``
    (merging terms equal modulo arithmetic) is accepted and not implemented."""
    del identify_equiv_terms
    if not enable_cse_tir:
        from ..transform import Pass, PassInfo  # pylint: disable=import-outside-toplevel

        return Pass(PassInfo("CommonSubexprElimTIR", 0), lambda mod, ctx: mod)
    return _make_pass("CommonSubexprElimTIR")


@register_pass("CommonSubexprElim")
def CommonSubexprElim(enable_cse_tir: bool = True, identify_equiv_terms: bool = False):  # pylint: disable=invalid-name
    """Alias of :func:`CommonSubexprElimTIR` under TVM 0.27's name
    (``tvm.tirx.transform.CommonSubexprElim``)."""
    return CommonSubexprElimTIR(enable_cse_tir, identify_equiv_terms)
