"""split, fuse, merge, add_unit_loop (mirrors TVM's
``src/tir/schedule/primitive/loop_transformation.cc``)."""
from __future__ import annotations

from typing import Any, Sequence, cast

from ...arith import Analyzer
from ...ir.dtype import DataType, dtype as _dtype
from ...ir.expr import IntImm, Range
from ...tir import op
from ...tir.expr import Var
from ...tir.stmt import Block, BlockRealize, For, ForKind
from ...tir.stmt_functor import substitute
from .. import analysis as A
from .. import errors as err
from ..schedule import Schedule, primitive
from ..state import StmtSRef
from ..transform import append_predicate, block_reuse, simplify_bindings

NotSingleInferFactorError = err._error(  # pylint: disable=protected-access
    "NotSingleInferFactorError", "more than one factor is None",
    "split: at most one factor may be None (inferred)")
NonPositiveFactorError = err._error(  # pylint: disable=protected-access
    "NonPositiveFactorError", "a factor is not positive",
    "{0}: factor {index} is {value}; split factors must be positive")


def _int_dtype(bits: int) -> DataType:
    return _dtype(f"int{bits}")


def _resolve_factors(sch: Schedule, loop: For, factors: Sequence[Any]) -> list[Any]:
    if not isinstance(factors, (list, tuple)):
        raise err.InvalidArgumentError(loop, reason=f"split factors must be a list, got "
                                       f"{factors!r}")
    out: list[Any] = []
    infer = -1
    total = 1
    limit = 2 ** (_dtype(loop.loop_var.dtype).bits - 1) - 1
    for i, f in enumerate(factors):
        if f is None:
            if infer != -1:
                raise NotSingleInferFactorError(loop)
            infer = i
            out.append(None)
            continue
        value = sch._expr_value(f)  # pylint: disable=protected-access
        if value <= 0:
            raise NonPositiveFactorError(loop, index=i, value=value)
        out.append(value)
        total *= value
        if total > limit:
            raise err.WrongFactorError(loop, reason=f"the product of the factors up to factor {i} "
                                       f"({total}) does not fit the loop's {loop.loop_var.dtype}")
    extent = loop.extent
    if infer != -1:
        if not isinstance(extent, IntImm):
            out[infer] = Analyzer().simplify(op.floordiv(extent + (total - 1), total))
        else:
            out[infer] = -(-extent.value // total)
    elif not Analyzer().can_prove(op.greater_equal(IntImm(extent.dtype, total), extent)
                                  if isinstance(extent, IntImm) else extent <= total):
        raise err.WrongFactorError(loop, reason=f"the product of the factors ({total}) is less "
                                   f"than the loop extent ({extent})")
    return out


@primitive("Split", attrs=("preserve_unit_iters", "disable_predication"), outputs="list")
def split(sch: Schedule, loop: Any, factors: Sequence[Any], preserve_unit_iters: bool = True,
          disable_predication: bool = False) -> list[Any]:
    """Split ``loop`` into ``len(factors)`` nested loops, outermost first; one factor may be
    ``None`` (inferred as ``ceildiv(extent, product of the others)``). When the product exceeds
    the extent the blocks get a predicate unless ``disable_predication`` (``Schedule.split``).

    Raises:
        ScheduleError: ``HasAnnotationOrThreadBindingError``, ``LoopNotStartWithZeroError``,
            ``NotSingleInferFactorError``, ``NonPositiveFactorError``, ``WrongFactorError``.
    """
    sref = sch._loop_sref(loop)  # pylint: disable=protected-access
    loop_stmt: For = sref.stmt
    A.check_no_annotation(sref)
    A.check_loop_starts_with_zero(sref)
    values = _resolve_factors(sch, loop_stmt, factors)
    dtype = loop_stmt.loop_var.dtype
    new_vars = [Var(f"{loop_stmt.loop_var.name_hint}_{i}", dtype) for i in range(len(values))]
    exts = [v if not isinstance(v, int) else IntImm(dtype, v) for v in values]
    ana = Analyzer()
    value: Any = IntImm(dtype, 0)
    for var, ext in zip(new_vars, exts):
        value = value * ext + var if not (isinstance(value, IntImm) and value.value == 0) else var
        ana.bind(var, Range.from_min_extent(IntImm(dtype, 0), ext))
    body = substitute(loop_stmt.body, {loop_stmt.loop_var: value})
    reuse = block_reuse(loop_stmt.body, body)
    pred = op.less(value, loop_stmt.extent)
    if not disable_predication and not ana.can_prove(pred):
        body = append_predicate(body, pred)
    for var, ext in reversed(list(zip(new_vars, exts))):
        body = For(var, IntImm(dtype, 0), ext, ForKind.SERIAL, body, span=loop_stmt.span)
    outer = [s.stmt for s in A.get_loops_above(sref)]
    new = simplify_bindings(body, outer, preserve_unit_iters)
    reuse = dict(zip(reuse, block_reuse_keys(reuse, body, new)))
    sch.state.replace(sref, new, reuse)
    out = []
    stmt = new
    for _ in values:
        out.append(sch._new_rv(sch.state.get_sref(stmt)))  # pylint: disable=protected-access
        stmt = stmt.body
    return out


def block_reuse_keys(reuse: dict[Block, Block], mid: Any, new: Any) -> list[Block]:
    """Follow ``reuse``'s new blocks through a further rewrite ``mid`` -> ``new``."""
    later = block_reuse(mid, new)
    return [later.get(n, n) for n in reuse.values()]


def _check_chain(srefs: Sequence[Any]) -> None:
    for outer, inner in zip(srefs, srefs[1:]):
        if outer.stmt.body is not inner.stmt:
            raise err.NotOnlyChildError(outer.stmt, inner.stmt)


@primitive("Fuse", attrs=("preserve_unit_iters",), outputs="one")
def fuse(sch: Schedule, *loops: Any, preserve_unit_iters: bool = True) -> Any:
    """Fuse consecutive loops (each the only child of the previous) into one of the product's
    extent (``Schedule.fuse``).

    Raises:
        ScheduleError: ``NotOnlyChildError``, ``LoopMultiAppearanceError``,
            ``HasAnnotationOrThreadBindingError``, ``LoopNotStartWithZeroError``.
    """
    srefs = [sch._loop_sref(lp) for lp in loops]  # pylint: disable=protected-access
    if not srefs:
        raise err.InvalidArgumentError(reason="fuse needs at least one loop")
    for i, s in enumerate(srefs):
        if any(s is t for t in srefs[:i]):
            raise err.LoopMultiAppearanceError(s.stmt)
        A.check_no_annotation(s)
        A.check_loop_starts_with_zero(s)
    _check_chain(srefs)
    fors: list[For] = [s.stmt for s in srefs]
    bits = max(f.loop_var.dtype.bits for f in fors)
    dtype = _int_dtype(bits)
    name = "_".join(f.loop_var.name_hint for f in fors) + "_fused"
    fused = Var(name, dtype)
    vmap: dict[Var, Any] = {}
    lower: Any = IntImm(dtype, 1)
    for i in range(len(fors) - 1, -1, -1):
        f = fors[i]
        part = op.floordiv(fused, lower) if not _is_one(lower) else fused
        if i != 0:
            part = op.floormod(part, op.cast(dtype, f.extent))
        vmap[f.loop_var] = op.cast(f.loop_var.dtype, part) if f.loop_var.dtype != dtype else part
        lower = Analyzer().simplify(lower * op.cast(dtype, f.extent))
    body = substitute(fors[-1].body, vmap)
    reuse = block_reuse(fors[-1].body, body)
    new = For(fused, IntImm(dtype, 0), lower, ForKind.SERIAL, body, span=fors[0].span)
    outer = [s.stmt for s in A.get_loops_above(srefs[0])]
    simplified = simplify_bindings(new, outer, preserve_unit_iters)
    reuse = dict(zip(reuse, block_reuse_keys(reuse, new, simplified)))
    sch.state.replace(srefs[0], simplified, reuse)
    return sch._new_rv(sch.state.get_sref(simplified))  # pylint: disable=protected-access


def _is_one(e: Any) -> bool:
    return isinstance(e, IntImm) and e.value == 1


@primitive("Merge", outputs="one")
def merge(sch: Schedule, *loops: Any) -> Any:
    """Merge loops of the same extent and depth that are siblings' subtrees in one scope into one
    loop nest: the bodies run one after another under the first loop (``Schedule.merge``).

    Raises:
        ScheduleError: ``LoopNotInSameScopeError``, ``HasAnnotationOrThreadBindingError``,
            ``LoopNotStartWithZeroError``, ``WrongFactorError`` (different extents),
            ``LoopMultiAppearanceError`` (a loop given twice), ``NotMergeableError`` (the
            merged bodies, or a body and a statement it moves past, share a written buffer in a
            way the new order may break).
    """
    srefs = [sch._loop_sref(lp) for lp in loops]  # pylint: disable=protected-access
    if len(srefs) < 2:
        raise err.InvalidArgumentError(reason="merge needs at least two loops")
    for k, s in enumerate(srefs):
        if any(s is t for t in srefs[:k]):  # merged with itself, its body ran twice
            raise err.LoopMultiAppearanceError(s.stmt)
    chains = [A.get_loops_above(s) + [s] for s in srefs]
    depth = len(chains[0])
    first = srefs[0].stmt
    for s, chain in zip(srefs, chains):
        A.check_no_annotation(s)
        A.check_loop_starts_with_zero(s)
        if A.get_scope_root(s) is not A.get_scope_root(srefs[0]):
            raise err.LoopNotInSameScopeError(first, s.stmt)
        if len(chain) != depth:
            raise err.WrongFactorError(s.stmt, reason="the loops to merge have different depths")
        for mine, ref in zip(chain, chains[0]):
            if not Analyzer().can_prove_equal(mine.stmt.extent, ref.stmt.extent):
                raise err.WrongFactorError(mine.stmt, reason=f"its extent {mine.stmt.extent} "
                                           f"differs from {ref.stmt.extent}")
        _check_chain(chain)
    top = A.lca_of([c[0] for c in chains])
    if top.is_loop and any(top is s for s in srefs):
        raise err.LoopNotInSameScopeError(first, top.stmt, )
    bodies = []
    for s, chain in zip(srefs, chains):
        vmap = {c.stmt.loop_var: chains[0][k].stmt.loop_var for k, c in enumerate(chain)}
        bodies.append(substitute(s.stmt.body, vmap))
    _check_order(chains, bodies)
    from ...tir.stmt import SeqStmt  # pylint: disable=import-outside-toplevel
    new_loop = first.with_changes(body=SeqStmt.flatten(*bodies))
    nest: Any = new_loop
    for c in reversed(chains[0][:-1]):
        if A.get_scope_root(c) is None or c.is_block:
            break
        nest = c.stmt.with_changes(body=nest)
    outermost = chains[0][0]
    sibling_roots = [c[0] for c in chains]
    scope_parent = cast(StmtSRef, outermost.parent)  # (a loop or non-root block has one)
    new_body = _replace_siblings(scope_parent.stmt.body, [s.stmt for s in sibling_roots], nest)
    sch.state.replace(scope_parent, scope_parent.stmt.with_changes(body=new_body))
    return sch._new_rv(sch.state.get_sref(new_loop))  # pylint: disable=protected-access


def _check_order(chains: list[list[Any]], bodies: list[Any]) -> None:
    """NotMergeableError when running the bodies one after another per iteration, at the first
    nest's place, may change what an access sees (see ``_merge_order``)."""
    from ._merge_order import check_merge_order  # pylint: disable=import-outside-toplevel
    depth = len(chains[0])
    d = min(next((k for k in range(depth) if c[k] is not chains[0][k]), depth)
            for c in chains[1:])
    roots = [c[d].stmt for c in chains] if d < depth else [chains[0][-1].stmt]
    parent = chains[0][d - 1].stmt if d > 0 else chains[0][0].parent.stmt
    body = parent.body
    seq = list(body.seq) if hasattr(body, "seq") else [body]
    check_merge_order(roots, bodies, [c.stmt for c in chains[0]], seq)


def _replace_siblings(body: Any, olds: list[Any], new: Any) -> Any:
    from ..state import _swap  # pylint: disable=import-outside-toplevel
    out = _swap(body, olds[0], new)
    for o in olds[1:]:
        out = _swap(out, o, None)
    return out


@primitive("AddUnitLoop", outputs="one")
def add_unit_loop(sch: Schedule, block_or_loop: Any) -> Any:
    """Wrap a block or loop in a new loop of extent 1 (``Schedule.add_unit_loop``)."""
    sref = sch._sref(block_or_loop)  # pylint: disable=protected-access
    stmt = sref.stmt
    var = Var("u", "int32")
    if isinstance(stmt, Block):
        realize = A.get_block_realize(sch.state, sref)
        if sref.parent is None:
            raise err.InvalidArgumentError(stmt, reason="cannot add a loop above the root block")
        new_loop = For(var, 0, 1, ForKind.SERIAL, realize)
        parent = cast(StmtSRef, sref.parent)  # (a loop or non-root block has one)
        from ..state import _swap  # pylint: disable=import-outside-toplevel
        new_parent = parent.stmt.with_changes(body=_swap(parent.stmt.body, realize, new_loop))
        sch.state.replace(parent, new_parent)
        return sch._new_rv(sch.state.get_sref(new_loop))  # pylint: disable=protected-access
    new_loop = For(var, 0, 1, ForKind.SERIAL, stmt)
    sch.state.replace(sref, new_loop)
    return sch._new_rv(sch.state.get_sref(new_loop))  # pylint: disable=protected-access


__all__ = ["split", "fuse", "merge", "add_unit_loop", "BlockRealize"]
