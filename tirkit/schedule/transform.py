"""IR rewriting helpers shared by the primitives (mirrors ``src/tir/schedule/transform.cc``):
binding simplification, block reuse maps, predicate appending.
"""
from __future__ import annotations

from typing import Any, Sequence

from ..arith import iter_map_simplify
from ..ir.expr import Range
from ..tir import op
from ..tir.stmt import Block, BlockRealize, For
from ..tir.stmt_functor import StmtMutator, pre_order_visit


def blocks_in(stmt: Any) -> list[Block]:
    """Every Block under ``stmt`` in pre-order."""
    out: list[Block] = []
    pre_order_visit(stmt, lambda n: out.append(n) if isinstance(n, Block) else None)
    return out


def block_reuse(old: Any, new: Any) -> dict[Block, Block]:
    """Old block -> new block for blocks that changed between two statements with the same
    blocks in the same order (TVM's ``block_sref_reuse`` maps)."""
    olds, news = blocks_in(old), blocks_in(new)
    return {o: n for o, n in zip(olds, news) if o is not n}


class _Simplify(StmtMutator):
    def __init__(self, loops: Sequence[For], preserve_unit_iters: bool) -> None:
        super().__init__()
        self.ranges = {f.loop_var: Range.from_min_extent(f.min, f.extent) for f in loops}
        self.preserve = preserve_unit_iters

    def visit_for_(self, op_: For) -> Any:
        """Bind the loop's range while its body is visited."""
        self.ranges[op_.loop_var] = Range.from_min_extent(op_.min, op_.extent)
        out = super().visit_for_(op_)
        self.ranges.pop(op_.loop_var, None)
        return out

    def visit_block_realize_(self, op_: BlockRealize) -> Any:
        """Simplify the bindings through iter-map detection."""
        if not op_.iter_values:
            return op_
        values = iter_map_simplify(op_.iter_values, self.ranges, op_.predicate, "surjective",
                                   not self.preserve)
        if all(a is b for a, b in zip(values, op_.iter_values)):
            return op_
        return op_.with_changes(iter_values=tuple(values))


def simplify_bindings(stmt: Any, outer_loops: Sequence[For], preserve_unit_iters: bool) -> Any:
    """Simplify the bindings of the BlockRealizes in ``stmt`` through iter-map detection
    (TVM ``IterMapSimplifyBlockBinding``); ``outer_loops`` are the loops enclosing ``stmt``."""
    return _Simplify(outer_loops, preserve_unit_iters)(stmt)


class _AppendPredicate(StmtMutator):
    def __init__(self, pred: Any) -> None:
        super().__init__()
        self.pred = pred

    def visit_block_realize_(self, op_: BlockRealize) -> Any:
        """AND the predicate in."""
        return op_.with_changes(predicate=op.logical_and(op_.predicate, self.pred)
                                if not _is_true(op_.predicate) else self.pred)


def _is_true(e: Any) -> bool:
    return getattr(e, "value", None) == 1 and e.dtype.is_bool()


def append_predicate(stmt: Any, pred: Any) -> Any:
    """AND ``pred`` into the predicate of every BlockRealize in ``stmt`` not nested in a block
    (TVM ``BlockPredicateAppender``)."""
    return _AppendPredicate(pred)(stmt)


def replace_objects(root: Any, mapping: dict[int, Any]) -> Any:
    """``root`` with every IR object whose ``id`` is in ``mapping`` replaced (buffers, vars,
    blocks), rebuilt copy-on-write through node fields, tuples and dicts (TVM's
    ``ReplaceBufferMutator`` generalised)."""
    from ..ir.node import Node, map_fields  # pylint: disable=import-outside-toplevel
    memo: dict[int, Any] = {}

    def go(v: Any) -> Any:
        if id(v) in mapping:
            return mapping[id(v)]
        if isinstance(v, tuple):
            items = tuple(go(x) for x in v)
            return v if all(a is b for a, b in zip(items, v)) else items
        if isinstance(v, dict):
            items2 = {k: go(x) for k, x in v.items()}
            return v if all(items2[k] is v[k] for k in v) else items2
        if not isinstance(v, Node) or getattr(v, "__interned__", False):
            return v
        key = id(v)
        if key not in memo:
            memo[key] = map_fields(v, go)
        return memo[key]
    return go(root)


def deep_swap(stmt: Any, mapping: dict[int, Any]) -> Any:
    """``stmt`` with the statements whose ``id`` is in ``mapping`` replaced, searching through
    loops and blocks; a ``None`` replacement removes the statement from its sequence (and a loop
    whose body becomes empty goes with it)."""
    from ..ir.node import map_fields  # pylint: disable=import-outside-toplevel
    from ..tir.stmt import SeqStmt, Stmt  # pylint: disable=import-outside-toplevel

    def go(s: Any) -> Any:
        if id(s) in mapping:
            return mapping[id(s)]
        if isinstance(s, SeqStmt):
            items = [go(x) for x in s.seq]
            if all(a is b for a, b in zip(items, s.seq)):
                return s
            kept = [x for x in items if x is not None]
            return SeqStmt.flatten(*kept) if kept else None
        if not isinstance(s, Stmt):
            return s
        out = map_fields(s, lambda v: go(v) if isinstance(v, Stmt) else v)
        if out is not s and isinstance(out, (For, BlockRealize)) and \
                getattr(out, "body", out) is None:
            return None
        if out is not s and isinstance(out, BlockRealize) and out.block is None:
            return None
        return out
    return go(stmt)


def rebind_block(block: Block, ivmap: dict) -> Block:
    """``block`` with its iter vars replaced per ``ivmap`` (old Var -> new Var) in the iter vars,
    body, init and regions."""
    from ..tir.stmt_functor import substitute  # pylint: disable=import-outside-toplevel
    ivs = tuple(iv.with_changes(var=ivmap.get(iv.var, iv.var)) for iv in block.iter_vars)
    return substitute(block, ivmap).with_changes(iter_vars=ivs)


def fresh_loops(stmt: Any) -> Any:
    """``stmt`` with every loop var under it replaced by a new Var of the same name (a copy of
    a loop nest must not define the same vars twice)."""
    from ..tir.expr import Var  # pylint: disable=import-outside-toplevel
    from ..tir.stmt_functor import ir_transform, substitute  # pylint: disable=W0404,C0415

    def post(f: Any) -> Any:
        if not isinstance(f, For):
            return None
        var = Var(f.loop_var.name_hint, f.loop_var.dtype)
        return f.with_changes(loop_var=var, body=substitute(f.body, {f.loop_var: var}))
    return ir_transform(stmt, None, post, ["tir.For"])
