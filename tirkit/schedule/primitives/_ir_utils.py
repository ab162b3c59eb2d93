"""IR helpers shared by the cache, layout and blockize primitives (mirrors pieces of TVM's
``src/tir/schedule/analysis/analysis.cc`` and ``transform.cc``: ``GetChildBlocks``,
``GetBufferRegionFromBuffer``, ``RelaxBufferRegion``, ``InsertCacheStage``, ``WithScope``,
``ReplaceBuffer``).

They work on the IR itself: a statement's place is found by identity from the function body
(:func:`path_to`), so they need no sref tree and can be used by any primitive.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Sequence, cast

from ...arith import Analyzer
from ...arith.int_set import IntervalSet, eval_set
from ...ir.expr import IntImm, PrimExpr, Range
from ...ir.type import PointerType, PrimType
from ...tir import expr as E
from ...tir import stmt as S
from ...tir.buffer import Buffer
from ...tir.stmt_functor import post_order_visit, substitute
from .. import errors as err
from .. import region_bound as RB


@dataclass
class PrimitiveResult:
    """What a primitive hands to the schedule state: replace ``scope`` by ``new_scope`` reusing
    the srefs of ``block_reuse`` (old block -> new block); ``blocks`` are the new blocks made."""

    scope: S.Stmt  # the scope block (or the statement a primitive rewrites in place)
    new_scope: S.Stmt
    block_reuse: dict[S.Block, S.Block]
    blocks: list[S.Block]


def path_to(root: S.Stmt, target: S.Stmt) -> list[S.Stmt] | None:
    """The statements from ``root`` down to ``target`` (both included), found by identity;
    ``None`` when ``target`` is not under ``root``."""
    stack: list[tuple[Any, int]] = [(root, 0)]
    path: list[Any] = []
    while stack:
        node, depth = stack.pop()
        del path[depth:]
        path.append(node)
        if node is target:
            return list(path)
        for child in reversed(_children(node)):
            stack.append((child, depth + 1))
    return None


def _children(node: Any) -> list[S.Stmt]:
    if isinstance(node, S.SeqStmt):
        return list(node.seq)
    if isinstance(node, S.BlockRealize):
        return [node.block]
    if isinstance(node, S.Block):
        return [node.body] if node.init is None else [node.init, node.body]
    if isinstance(node, S.IfThenElse):
        return [node.then_case] + ([node.else_case] if node.else_case is not None else [])
    body = getattr(node, "body", None)
    return [body] if isinstance(body, S.Stmt) else []


@dataclass
class Site:
    """Where a block sits: ``path`` from the function body to the block, its ``realize``, the
    nearest enclosing ``scope`` block and the ``loops`` between them, outermost first."""

    path: list[S.Stmt]
    block: S.Block
    realize: S.BlockRealize
    scope: S.Block
    loops: list[S.For]


def locate(body: S.Stmt, block: S.Block) -> Site:
    """The :class:`Site` of ``block`` in a function ``body``.

    Raises:
        RootBlockError: ``block`` is the root block (TVM's ``GetScopeRoot``);
        ValueError: ``block`` is not in ``body``.
    """
    path = path_to(body, block)
    if path is not None and len(path) < 3:
        raise err.RootBlockError(block)
    if path is None:
        raise ValueError(f"block {block.name_hint!r} is not a child block of the function")
    realize = path[-2]
    scope_at = max(i for i, s in enumerate(path[:-2]) if isinstance(s, S.Block))
    loops = [s for s in path[scope_at + 1:-2] if isinstance(s, S.For)]
    return Site(path, block, cast(S.BlockRealize, realize), cast(S.Block, path[scope_at]), loops)


def child_blocks(stmt: S.Stmt) -> list[S.Block]:
    """Blocks directly under ``stmt`` (not nested in another block), in program order
    (TVM's ``GetChildBlocks``); for a Block, those of its body."""
    out: list[S.Block] = []
    stack = [stmt.body] if isinstance(stmt, S.Block) else [stmt]
    while stack:
        node = stack.pop()
        if isinstance(node, S.Block):
            out.append(node)
            continue
        stack.extend(reversed(_children(node)))
    return out


def region_of(regions: Iterable[S.BufferRegion], buffer: Buffer) -> S.BufferRegion | None:
    """The region of ``buffer`` among ``regions`` (TVM's ``GetBufferRegionFromBuffer``)."""
    for region in regions:
        if region.buffer is buffer:
            return region
    return None


def writers(scope: S.Block, buffer: Buffer) -> list[S.Block]:
    """Child blocks of ``scope`` that write ``buffer`` (TVM's ``BlockScope::buffer_writers``)."""
    return [b for b in child_blocks(scope) if region_of(b.writes, buffer) is not None]


def readers(scope: S.Block, buffer: Buffer) -> list[S.Block]:
    """Child blocks of ``scope`` that read ``buffer``."""
    return [b for b in child_blocks(scope) if region_of(b.reads, buffer) is not None]


def raw_consumers(scope: S.Block, producer: S.Block) -> list[S.Block]:
    """Child blocks after ``producer`` that read a buffer it writes (TVM's RAW dependencies of
    ``BlockScope::GetDepsBySrc``)."""
    blocks = child_blocks(scope)
    after = blocks[next(i for i, b in enumerate(blocks) if b is producer) + 1:] \
        if any(b is producer for b in blocks) else []
    written = [w.buffer for w in producer.writes]
    return [b for b in after if any(region_of(b.reads, buf) is not None for buf in written)]


def loop_ranges(loops: Iterable[S.For]) -> dict[E.Var, Range]:
    """``{loop_var: Range(min, extent)}`` of ``loops``."""
    return {lp.loop_var: Range.from_min_extent(lp.min, lp.extent) for lp in loops}


def bindings(realize: S.BlockRealize) -> dict[E.Var, PrimExpr]:
    """``{iter_var.var: binding}`` of a block realize (TVM's ``GetBindings``)."""
    return {iv.var: v for iv, v in zip(realize.block.iter_vars, realize.iter_values)}


def relax_region(region: S.BufferRegion, realize: S.BlockRealize,
                 loops: Sequence[S.For]) -> S.BufferRegion:
    """The part of ``buffer`` that ``region`` (in terms of the block's iter vars) covers while
    ``loops`` run (TVM's ``RelaxBufferRegion``): the block predicate narrows it (a
    ``T.where`` of a non-divisible split keeps it inside the buffer, TVM's
    ``AnalyzeRegionUpperBound``); unbounded dims cover the whole buffer."""
    vmap = bindings(realize)
    dom = loop_ranges(loops)
    ana = Analyzer()
    for var, rng in dom.items():
        ana.bind(var, rng)
    bounds = RB.predicate_bounds(realize.predicate)[0]
    out = []
    for r, dim in zip(region.region, region.buffer.shape):
        lo_e, hi_e = substitute(r.min, vmap), substitute(r.min + r.extent - 1, vmap)
        relaxed = IntervalSet(eval_set(lo_e, dom).min_value, eval_set(hi_e, dom).max_value)
        if bounds:
            relaxed = RB.tighten(ana, lo_e, hi_e, relaxed, bounds, set(dom), dom, realize.predicate)
        if not relaxed.is_bounded():
            out.append(Range.from_min_extent(IntImm(dim.dtype, 0), dim))
            continue
        lo: Any = relaxed.min_value  # (bounded)
        hi: Any = relaxed.max_value
        relaxed = IntervalSet(ana.simplify(lo), ana.simplify(hi))
        if all(isinstance(v, IntImm) for v in (relaxed.min_value, relaxed.max_value, dim)):
            # the predicate may bound an index in a form the relaxation cannot use
            # (T.where((n_0 * 2 + n_1) * 2 + n_2 < 1) over n_2 in [0, 2)): the loops' range
            # then overshoots the buffer, which a valid program never touches, so cut it
            relaxed = RB.clip_to_shape(ana, [relaxed], [dim])[0]
        start = ana.simplify(cast(PrimExpr, relaxed.min_value))
        out.append(Range.from_min_extent(start, ana.simplify(relaxed.max_value - start + 1)))
    return S.BufferRegion(region.buffer, tuple(out))


def full_region(buffer: Buffer) -> S.BufferRegion:
    """The whole of ``buffer`` (``BufferRegion::FullRegion``)."""
    return S.BufferRegion(buffer, tuple(Range.from_min_extent(IntImm(d.dtype, 0), d)
                                        for d in buffer.shape))


def insert_stage(body: S.Stmt, pos: int, stage: S.Stmt) -> S.Stmt:
    """``body`` with ``stage`` inserted at position ``pos`` of its statement sequence
    (TVM's ``InsertCacheStage``; DeclBuffer/AllocateConst wrappers are looked through)."""
    if isinstance(body, (S.DeclBuffer, S.AllocateConst)):
        return body.with_changes(body=insert_stage(body.body, pos, stage))
    seq = list(body.seq) if isinstance(body, S.SeqStmt) else [body]
    seq.insert(pos, stage)
    return S.SeqStmt(tuple(seq))


def with_scope(buffer: Buffer, scope: str, name: str | None = None) -> Buffer:
    """A new buffer like ``buffer`` in storage ``scope`` with a fresh data var (TVM's
    ``WithScope``); ``name`` defaults to ``{name}_{scope}``."""
    name = name if name is not None else f"{buffer.name}_{scope}"
    data = E.Var(name, PointerType(PrimType(buffer.dtype), scope))
    return buffer.with_changes(data=data, name=name)


def replace_buffer_in_regions(regions: Iterable[S.BufferRegion], old: Buffer,
                              new: Buffer) -> tuple[S.BufferRegion, ...]:
    """Regions with ``old`` replaced by ``new`` (TVM's ``ReplaceBuffer``)."""
    return tuple(S.BufferRegion(new, r.region) if r.buffer is old else r for r in regions)


def reads_before_init(block: S.Block, buffer: Buffer) -> bool:
    """Whether ``block`` reads ``buffer`` and has no ``T.init``: its reads see what was in the
    buffer before it (a decomposed update ``C[i] = C[i] + ...``, an accumulation into an
    argument), so a primitive giving it a fresh buffer for ``buffer`` must copy that in."""
    if block.init is not None:
        return False
    if any(r.buffer is buffer for r in block.reads):
        return True
    hit: list[bool] = []
    post_order_visit(block.body, lambda n: hit.append(True)
                     if isinstance(n, E.BufferLoad) and n.buffer is buffer else None)
    return bool(hit)


def is_const(e: PrimExpr, value: int | None = None) -> bool:
    """Whether ``e`` is an integer constant (equal to ``value`` when given)."""
    return isinstance(e, IntImm) and (value is None or e.value == value)


def replace_stmt(root: S.Stmt, old: S.Stmt, new: S.Stmt) -> S.Stmt:
    """``root`` with the statement ``old`` (found by identity) replaced by ``new``; the
    statements on the path are rebuilt, everything else is shared.

    Raises:
        ValueError: when ``old`` is not under ``root``.
    """
    path = path_to(root, old)
    if path is None:
        raise ValueError("replace_stmt: the statement is not under the root")
    out: Any = new
    for parent, child in zip(reversed(path[:-1]), reversed(path[1:])):
        out = _replace_child(parent, child, out)
    return out


def _replace_child(parent: Any, child: Any, new: Any) -> Any:
    if isinstance(parent, S.SeqStmt):
        return parent.with_changes(seq=tuple(new if s is child else s for s in parent.seq))
    for name in ("block", "body", "init", "then_case", "else_case"):
        if getattr(parent, name, None) is child:
            return parent.with_changes(**{name: new})
    raise ValueError(f"replace_stmt: {type(child).__name__} is not a child of "
                     f"{type(parent).__name__}")
