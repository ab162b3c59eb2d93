"""blockize and tensorize (mirrors TVM's ``src/tir/schedule/primitive/blockize_tensorize.cc``).

``blockize(loop)`` turns the subtree under ``loop`` (one block) into an outer block ``{name}_o``
whose iter vars ``{v}_o`` range over the outer part of each binding; the inner block keeps the
inner part (``{v}_i``; iters whose inner extent is 1 are folded into the outer ones) and its
accesses become ``v_o * inner_extent + v_i``. A binding is divided when it is an affine sum of
outer-loop and inner-loop terms whose inner part covers ``[0, extent)`` (TVM's
``SubspaceDivide`` for affine bindings). ``tensorize(loop_or_block, name)`` blockizes, matches the
outer block against the intrinsic's ``desc`` (:mod:`.tensorize_compare`) and replaces its body by
the ``impl`` body, binding the impl's buffers to the matched regions with ``match_buffer``.
"""
from __future__ import annotations

from typing import Any, cast

from ...arith import Analyzer
from ...ir.expr import IntImm, PrimExpr, Range
from ...tir import expr as E
from ...tir import op as tir_op
from ...tir import stmt as S
from ...tir.stmt_functor import post_order_visit, renew_defs, substitute
from . import _ir_utils as U
from ..errors import NotSingleChildBlockError
from .cache_layout_errors import BlockizeError
from ._blockize_util import Subst, divide, eval_regions, uses
from ._ir_utils import PrimitiveResult




def _outer_init(block: S.Block, realize: S.BlockRealize, loops: list[S.For]) -> S.Stmt:
    """TVM's ``GenerateOuterInit``: the init as its own block over the loops it needs."""
    used: set[int] = set()
    post_order_visit(block.init, lambda n: used.add(id(n)) if isinstance(n, E.Var) else None)
    vmap: dict[int, Any] = {}
    ivs, values = [], []
    for iv, v in zip(realize.block.iter_vars, realize.iter_values):
        if iv.iter_type == E.IterVarType.DataPar and id(iv.var) in used:
            nv = E.Var(f"{iv.var.name_hint}_init", iv.var.dtype)
            vmap[id(iv.var)] = nv
            ivs.append(iv.with_changes(var=nv))
            values.append(v)
    stmt: S.Stmt = S.BlockRealize(tuple(values), realize.predicate, S.Block(
        tuple(ivs), (), block.writes, f"{block.name_hint}_init", cast(S.Stmt, block.init)))
    for lp in reversed(loops):
        if any(uses(v, {id(lp.loop_var)}) for v in values):
            nv = E.Var(lp.loop_var.name_hint, lp.loop_var.dtype)
            vmap[id(lp.loop_var)] = nv
            stmt = lp.with_changes(loop_var=nv, body=stmt)
    return substitute(stmt, lambda v: vmap.get(id(v)))


def blockize_realize(site: U.Site, loop: S.For, preserve_unit_iters: bool,
                     reuse: dict[S.Block, S.Block]) -> S.BlockRealize:
    """TVM's ``BlockizeImpl``: the outer BlockRealize replacing ``loop``.

    Raises:
        SubspaceNotDivisibleError: when a binding cannot be divided at ``loop``.
    """
    block, realize = site.block, site.realize
    at = next(i for i, lp in enumerate(site.loops) if lp is loop)
    outer, inner = site.loops[:at], site.loops[at:]
    ana = Analyzer()
    for lp in site.loops:
        ana.bind(lp.loop_var, Range.from_min_extent(lp.min, lp.extent))
    o_ivs, o_vals, i_ivs, i_vals = [], [], [], []
    sub: dict[int, Any] = {}
    for iv, value in zip(block.iter_vars, realize.iter_values):
        div = divide(value, cast(Range, iv.dom), outer, inner, ana)  # (a block iter var's)
        if div is None:
            raise BlockizeError(loop, block, reason=f"the binding {iv.var.name_hint} = "
                                f"{value.script()} cannot be divided into an outer part and a "
                                f'part over the loops from "{loop.loop_var.name_hint}" inward')
        o_iv = E.IterVar(Range.from_min_extent(IntImm(iv.var.dtype, 0), div.outer_extent),
                         E.Var(f"{iv.var.name_hint}_o", iv.var.dtype), iv.iter_type)
        o_ivs.append(o_iv)
        o_vals.append(div.outer)
        if U.is_const(div.inner_extent, 1):
            unit = U.is_const(div.outer_extent, 1) and not preserve_unit_iters
            sub[id(iv.var)] = IntImm(iv.var.dtype, 0) if unit else o_iv.var
            continue
        i_iv = E.IterVar(Range.from_min_extent(IntImm(iv.var.dtype, 0), div.inner_extent),
                         E.Var(f"{iv.var.name_hint}_i", iv.var.dtype), iv.iter_type)
        i_ivs.append(i_iv)
        i_vals.append(div.inner)
        sub[id(iv.var)] = i_iv.var if U.is_const(div.outer_extent, 1) \
            else o_iv.var * div.inner_extent + i_iv.var
    inner_dom = {iv.var: cast(Range, iv.dom) for iv in i_ivs}  # (made above)
    for iv in i_ivs:
        ana.bind(iv.var, inner_dom[iv.var])
    block_sub = cast(S.Block, Subst(sub, ana, reuse).visit_stmt(block))
    outer_pred, inner_pred = _split_predicate(realize.predicate, inner)
    has_outer_reduce = block_sub.init is not None and any(
        iv.iter_type == E.IterVarType.CommReduce for iv in o_ivs)
    reads = tuple(block_sub.writes) + tuple(block_sub.reads) if has_outer_reduce \
        else block_sub.reads
    inner_block = block_sub.with_changes(iter_vars=tuple(i_ivs), init=None, reads=reads)
    inner_realize = S.BlockRealize(tuple(i_vals), inner_pred, inner_block)
    reuse[block] = inner_block
    body: S.Stmt = inner_realize
    for lp in reversed(inner):
        body = lp.with_changes(body=body)
    init = _outer_init(block_sub, inner_realize, inner) if block_sub.init is not None else None
    # an opaque block (no iter vars, as loop_partition's "_common" block) names the inner loop
    # vars in its regions directly: relax over those loops too, or the outer block's regions
    # would use a var defined only inside it (ill-formed IR; found by the wide fuzzer,
    # softmax.py: loop_partition then blockize, SCHED_FUZZ_BOUNDS=1 --hypothesis-seed=6)
    inner_dom.update({lp.loop_var: Range.from_min_extent(lp.min, lp.extent) for lp in inner})
    outer_block = S.Block(tuple(o_ivs), eval_regions(block_sub.reads, inner_dom, ana),
                          eval_regions(block_sub.writes, inner_dom, ana),
                          f"{block.name_hint}_o", body, init)
    return S.BlockRealize(tuple(o_vals), outer_pred, outer_block)


def _split_predicate(pred: PrimExpr, inner: list[S.For]) -> tuple[PrimExpr, PrimExpr]:
    true = IntImm("bool", 1)
    if U.is_const(pred, 1) or uses(pred, {id(lp.loop_var) for lp in inner}):
        return true, pred
    return pred, true


def blockize_impl(body: S.Stmt, loop: S.For, preserve_unit_iters: bool = True) -> PrimitiveResult:
    """TVM's ``Blockize`` at ``loop`` of the function ``body``.

    Raises:
        NotSingleChildBlockError: when the subtree does not hold exactly one block;
        SubspaceNotDivisibleError: when a binding cannot be divided at ``loop``.
    """
    blocks = U.child_blocks(loop)
    if len(blocks) != 1:
        raise NotSingleChildBlockError(loop)
    site = U.locate(body, blocks[0])
    if not any(lp is loop for lp in site.loops):
        raise BlockizeError(loop, reason="the block's loops do not include this loop")
    reuse: dict[S.Block, S.Block] = {}
    outer = blockize_realize(site, loop, preserve_unit_iters, reuse)
    return PrimitiveResult(loop, outer, reuse, [outer.block])


def tensorize_impl(body: S.Stmt, target: S.Stmt, intrin: Any,
              preserve_unit_iters: bool = True) -> PrimitiveResult:
    """TVM's ``Tensorize`` of a loop (blockized first) or a block of the function ``body`` with
    the ``TensorIntrin`` ``intrin``.

    Raises:
        SubspaceNotDivisibleError (blockize), TensorizeError: naming the first mismatch between
        the block and the intrinsic's description.
    """
    from .tensorize_compare import TensorizeComparator  # pylint: disable=import-outside-toplevel

    reuse: dict[S.Block, S.Block] = {}
    realize: S.BlockRealize
    if isinstance(target, S.For):
        realize = cast(S.BlockRealize, blockize_impl(body, target, preserve_unit_iters).new_scope)
    else:
        realize = U.locate(body, cast(S.Block, target)).realize
    impl = renew_defs(intrin.impl)
    cmp = TensorizeComparator(realize.block)
    cmp.match(realize, intrin.desc.body)
    impl_block = cast(S.BlockRealize, impl.body).block
    regions = {r.buffer: r.region for r in (*impl_block.reads, *impl_block.writes)}
    mbs = []
    for d_param, i_param in zip(intrin.desc.params, impl.params):
        desc_buf, impl_buf = intrin.desc.buffer_map[d_param], impl.buffer_map[i_param]
        cur = cmp.rhs_buffer_map[id(desc_buf)]
        base = cmp.buffer_indices[id(cur)]
        old = regions[impl_buf]
        offset = len(base) - len(old)
        rng = [Range.from_min_extent(b, IntImm(b.dtype, 1)) for b in base[:offset]]
        rng += [Range.from_min_extent(b, tir_op.cast(b.dtype, r.extent))
                for b, r in zip(base[offset:], old)]
        mbs.append(S.MatchBufferRegion(impl_buf, S.BufferRegion(cur, tuple(rng))))
    anns = {**impl_block.annotations, **realize.block.annotations}
    new_block = realize.block.with_changes(body=impl_block.body, match_buffers=tuple(mbs),
                                           annotations=anns)
    if isinstance(target, S.For):
        return PrimitiveResult(target, realize.with_changes(block=new_block), reuse, [new_block])
    return PrimitiveResult(target, new_block, {cast(S.Block, target): new_block}, [new_block])


# ----------------------------------------------------------------------- schedule methods
def _register() -> None:
    from ...tir.tensor_intrin import TensorIntrin  # pylint: disable=C0415
    from ..schedule import primitive  # pylint: disable=import-outside-toplevel
    from ._args import apply_result, func_body  # pylint: disable=C0415

    @primitive("Blockize", attrs=("preserve_unit_iters",), outputs="one")
    def blockize(sch: Any, target: Any, preserve_unit_iters: bool = True) -> Any:
        """Turn the subtree under the loop ``target`` (one block) into a block, or put a list
        of sibling blocks ``target`` under one new block; returns the new outer block
        (``Schedule.blockize``).

        Raises:
            ScheduleError: SubspaceNotDivisibleError; NotChildError (a list of blocks that are
                not consecutive, distinct, un-nested children of their common ancestor).
        """
        if isinstance(target, (list, tuple)):
            from .blockize_blocks import blockize_blocks  # pylint: disable=C0415
            srefs = [sch._block_sref(b) for b in target]  # pylint: disable=protected-access
            if not srefs:
                from ..errors import InvalidArgumentError  # pylint: disable=C0415
                raise InvalidArgumentError(reason="blockize needs a loop or a non-empty list "
                                           "of blocks")
            return apply_result(sch, blockize_blocks(sch, srefs))[0]
        loop = sch._loop_sref(target).stmt  # pylint: disable=protected-access
        return apply_result(sch, blockize_impl(func_body(sch, target), loop,
                                               preserve_unit_iters))[0]

    @primitive("Tensorize", attrs=("tensor_intrin", "preserve_unit_iters"))
    def tensorize(sch: Any, block_or_loop: Any, tensor_intrin: str,
                  preserve_unit_iters: bool = True) -> None:
        """Replace the computation of a loop (blockized first) or block by the registered tensor
        intrinsic ``tensor_intrin`` whose description it matches (``Schedule.tensorize``).

        Raises:
            ScheduleError: SubspaceNotDivisibleError, TensorizeError; ValueError for an unknown
                intrinsic name.
        """
        intrin = TensorIntrin.get(tensor_intrin)
        stmt = sch._sref(block_or_loop).stmt  # pylint: disable=protected-access
        apply_result(sch, tensorize_impl(func_body(sch, block_or_loop), stmt, intrin,
                                         preserve_unit_iters))


_register()
