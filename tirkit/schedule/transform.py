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
        self.ranges[op_.loop_var] = Range.from_min_extent(op_.min, op_.extent)
        out = super().visit_for_(op_)
        self.ranges.pop(op_.loop_var, None)
        return out

    def visit_block_realize_(self, op_: BlockRealize) -> Any:
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
        return op_.with_changes(predicate=op.logical_and(op_.predicate, self.pred)
                                if not _is_true(op_.predicate) else self.pred)


def _is_true(e: Any) -> bool:
    return getattr(e, "value", None) == 1 and e.dtype.is_bool()


def append_predicate(stmt: Any, pred: Any) -> Any:
    """AND ``pred`` into the predicate of every BlockRealize in ``stmt`` not nested in a block
    (TVM ``BlockPredicateAppender``)."""
    return _AppendPredicate(pred)(stmt)
