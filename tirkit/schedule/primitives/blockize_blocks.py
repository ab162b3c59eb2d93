"""blockize of a list of blocks (mirrors TVM's ``BlockizeBlocks`` / ``BlockizeRewriter`` of
``src/tir/schedule/primitive/blockize_tensorize.cc``).

``blockize([b0, b1, ...])`` puts the loop nests of sibling blocks -- consecutive children of
their lowest common ancestor (a loop or a block) -- under one new block ``outer_b0_b1_...``.
The outer block's iter vars come from the first block's outer part (unit iters ``{v}_o`` bound
to 0, as in TVM); each block keeps its loops, its iter vars whose inner extent exceeds 1 are
renamed ``{v}_i``, and those of extent 1 become their constant. Its reads and writes are the
union of the blocks' regions relaxed over their loops.

Where TVM stops with an internal check (``Target blocks must not be nested``, ``must be
consecutive``), tirkit raises ``NotChildError`` naming the block and the common ancestor.
Bindings that depend on loops at or above the common ancestor are not divided (TVM's outer
subspace); they raise ``SubspaceNotDivisibleError``. A block's ``T.init()`` stays with it (TVM
would drop it, which changes what a reduction computes).
"""
from __future__ import annotations

from typing import Any, cast

from ...arith import Analyzer
from ...ir.expr import IntImm, Range
from ...tir import expr as E
from ...tir import stmt as S
from .. import analysis as A
from .. import errors as err
from ._ir_utils import PrimitiveResult
from ._blockize_util import Subst, divide, eval_regions, union_regions
from .cache_layout_errors import BlockizeError


def _seq_children(stmt: Any) -> list[Any]:
    body = stmt.body
    return list(body.seq) if isinstance(body, S.SeqStmt) else [body]


def _check_siblings(sch: Any, srefs: list[Any]) -> tuple[Any, list[int]]:
    """The LCA sref of the blocks and the positions of the LCA body's statements holding them.

    Raises:
        NotChildError: a single block, a repeated or nested block, a statement that holds a
            block that is not in the list, or positions that are not consecutive.
    """
    ids = [id(s) for s in srefs]
    for s in srefs:
        if ids.count(id(s)) > 1:
            raise err.NotChildError(s.stmt, reason=f'block "{s.stmt.name_hint}" is given twice')
    if len(srefs) == 1:
        raise err.NotChildError(srefs[0].stmt, reason="blockize of a list needs two or more "
                                "sibling blocks; to blockize one block, pass a loop above it")
    lca = A.lca_of(srefs)
    if any(lca is s for s in srefs):
        raise err.NotChildError(lca.stmt, reason=f'the blocks must not be nested: '
                                f'{err.describe(lca.stmt)} contains the others')
    children = _seq_children(lca.stmt)
    positions = []
    for s in srefs:
        top = next(p for p in (s, *s.ancestors()) if p.parent is lca)
        node = A.get_block_realize(sch.state, top) if top.is_block else top.stmt
        pos = next((i for i, c in enumerate(children) if c is node), None)
        if pos is None:
            raise err.NotChildError(s.stmt, lca.stmt, reason=f"{err.describe(s.stmt)} is not "
                                    f"directly in the statement list of {err.describe(lca.stmt)}")
        positions.append(pos)
    for pos in sorted(set(positions)):
        from ..transform import blocks_in  # pylint: disable=import-outside-toplevel
        extra = [b for b in blocks_in(children[pos]) if all(b is not s.stmt for s in srefs)]
        if extra:
            raise err.NotChildError(extra[0], lca.stmt, reason=f'{err.describe(extra[0])} sits '
                                    f'in the same subtree of {err.describe(lca.stmt)} as the '
                                    "blocks to blockize but is not one of them")
    order = sorted(set(positions))
    if order != list(range(order[0], order[0] + len(order))):
        raise err.NotChildError(lca.stmt, reason=f"the blocks must be consecutive children of "
                                f"{err.describe(lca.stmt)}; they are at positions {order}")
    return lca, order


def _inner(sch: Any, sref: Any, lca: Any, ana: Analyzer, reuse: dict) -> tuple[Any, list, list]:
    """The block's loop nest under the LCA with its iter vars divided (no outer part), its read
    and write regions relaxed over those loops."""
    realize = A.get_block_realize(sch.state, sref)
    block = realize.block
    loops = [p.stmt for p in reversed(A.loops_between(sref, lca))]
    for lp in loops:
        ana.bind(lp.loop_var, Range.from_min_extent(lp.min, lp.extent))
    ivs: list[E.IterVar] = []
    vals: list[Any] = []
    sub: dict[int, Any] = {}
    for iv, value in zip(block.iter_vars, realize.iter_values):
        v = ana.simplify(value)
        if isinstance(v, IntImm):
            sub[id(iv.var)] = v
            continue
        div = divide(v, cast(Range, iv.dom), [], loops, ana)  # (a block iter var's domain)
        if div is None or not isinstance(div.outer, IntImm):
            raise BlockizeError(block, reason=f"the binding {iv.var.name_hint} = "
                                f"{value.script()} is not an affine map of the loops between the "
                                "block and the blocks' common ancestor (blockize of several "
                                "blocks does not divide an outer part)")
        new = E.IterVar(Range.from_min_extent(IntImm(iv.var.dtype, 0), div.inner_extent),
                        E.Var(f"{iv.var.name_hint}_i", iv.var.dtype), iv.iter_type)
        ivs.append(new)
        vals.append(div.inner)
        sub[id(iv.var)] = ana.simplify(div.outer * div.inner_extent + new.var)
    dom = {iv.var: cast(Range, iv.dom) for iv in ivs}  # (made above)
    for iv in ivs:
        ana.bind(iv.var, dom[iv.var])
    block_sub = cast(S.Block, Subst(sub, ana, reuse).visit_stmt(block)).with_changes(
        iter_vars=tuple(ivs))
    reuse[block] = block_sub
    stmt: S.Stmt = S.BlockRealize(tuple(vals), realize.predicate, block_sub)
    for lp in reversed(loops):
        stmt = lp.with_changes(body=stmt)
    return (stmt, list(eval_regions(block_sub.reads, dom, ana)),
            list(eval_regions(block_sub.writes, dom, ana)))


def blockize_blocks(sch: Any, srefs: list[Any]) -> PrimitiveResult:
    """TVM's ``Blockize`` of several blocks: the LCA rewritten with one outer block in place of
    the statements holding them.

    Raises:
        NotChildError: the blocks are not consecutive, distinct, un-nested children of their
            lowest common ancestor;
        SubspaceNotDivisibleError: a binding depends on loops at or above that ancestor.
    """
    lca, order = _check_siblings(sch, srefs)
    ana = Analyzer()
    for p in (lca, *lca.ancestors()):
        if p.is_loop:
            ana.bind(p.stmt.loop_var, Range.from_min_extent(p.stmt.min, p.stmt.extent))
    reuse: dict[S.Block, S.Block] = {}
    by_pos = sorted(srefs, key=lambda s: order.index(next(
        i for i, c in enumerate(_seq_children(lca.stmt)) if _holds(c, s.stmt))))
    body, reads, writes = [], [], []
    for s in by_pos:
        stmt, r, w = _inner(sch, s, lca, ana, reuse)
        body.append(stmt)
        reads += r
        writes += w
    first = A.get_block_realize(sch.state, by_pos[0]).block
    o_ivs = tuple(E.IterVar(Range.from_min_extent(IntImm(iv.var.dtype, 0),
                                                  IntImm(iv.var.dtype, 1)),
                            E.Var(f"{iv.var.name_hint}_o", iv.var.dtype), iv.iter_type)
                  for iv in first.iter_vars)
    name = "outer_" + "".join(f"{s.stmt.name_hint}_" for s in by_pos)
    outer = S.Block(o_ivs, union_regions(reads, ana), union_regions(writes, ana), name,
                    body[0] if len(body) == 1 else S.SeqStmt(tuple(body)))
    realize = S.BlockRealize(tuple(IntImm(iv.var.dtype, 0) for iv in o_ivs),
                             IntImm("bool", 1), outer)
    children = _seq_children(lca.stmt)
    new_children = children[:order[0]] + [realize] + children[order[-1] + 1:]
    new_body = new_children[0] if len(new_children) == 1 else S.SeqStmt(tuple(new_children))
    return PrimitiveResult(lca.stmt, lca.stmt.with_changes(body=new_body), reuse, [outer])


def _holds(stmt: Any, block: S.Block) -> bool:
    from ..transform import blocks_in  # pylint: disable=import-outside-toplevel
    return any(b is block for b in blocks_in(stmt))
