"""transform_layout and transform_block_layout (mirrors TVM's
``src/tir/schedule/primitive/layout_transformation.cc``).

``transform_layout(block, buffer, index_map, pad_value)`` gives a buffer the shape
``index_map.map_shape(shape)`` and rewrites every access ``B[idx]`` in its defining scope to
``B[index_map(idx)]`` (block regions re-inferred). A map that introduces padding needs a
``pad_value``: a block ``buffer_{name}_padding`` writing it where the padding predicate holds is
inserted after the buffer's writer (TVM's epilogue plan). ``transform_block_layout(block,
index_map)`` remaps a block's iteration space: new iter vars over ``map_shape`` of the old
domains, the body rewritten through the inverse map, one new loop per new iter var.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence, cast

from ...arith import Analyzer
from ...ir.expr import FloatImm, IntImm, PrimExpr, Range
from ...tir import expr as E
from ...tir import stmt as S
from ...tir.block_access import get_block_read_write_region
from ...tir.buffer import Buffer
from ...tir.index_map import IndexMap
from ...tir.stmt_functor import StmtExprMutator, post_order_visit, substitute
from .. import analysis as A
from ..errors import OpaqueNewIterTypeError
from . import _ir_utils as U
from . import cache_layout_errors as X
from ._ir_utils import PrimitiveResult


@dataclass
class LayoutResult(PrimitiveResult):
    """A :class:`PrimitiveResult` and, when the buffer is a function parameter, the buffer that
    replaces it in the function's ``buffer_map``."""

    old_buffer: Buffer | None = None
    new_buffer: Buffer | None = None


def legalize_index_map_dtype(index_map: IndexMap, args: Sequence[PrimExpr]) -> IndexMap:
    """The map with its vars and integer constants in the dtype of ``args`` (TVM's
    ``LegalizeIndexMapDType``): a map made with int64 vars applied to an int32-shaped buffer."""
    dtype = args[0].dtype if args else None
    if dtype is None or all(v.dtype == dtype for v in index_map.initial_indices):
        return index_map
    new_vars = [E.Var(v.name_hint, dtype) for v in index_map.initial_indices]
    vmap = {id(v): n for v, n in zip(index_map.initial_indices, new_vars)}
    return IndexMap(new_vars, [_retype(e, vmap, dtype) for e in index_map.final_indices])


def _retype(e: PrimExpr, vmap: dict[int, E.Var], dtype: Any) -> PrimExpr:
    from ...tir import op as tir_op  # pylint: disable=import-outside-toplevel

    if isinstance(e, E.Var):
        return vmap.get(id(e), e)
    if isinstance(e, IntImm) and e.dtype.is_int():
        return IntImm(dtype, e.value)
    if hasattr(e, "a") and hasattr(e, "b"):
        binary: Any = e  # (a binary op)
        return type(binary)(*tir_op.match_types(_retype(binary.a, vmap, dtype),
                                                _retype(binary.b, vmap, dtype)))
    return substitute(e, lambda v: vmap.get(id(v)))


def _defining_site(site: U.Site, buffer: Buffer) -> tuple[S.Block | None, bool]:
    """TVM's ``GetBufferDefiningSite``: the block allocating (``True``) or matching
    (``False``) ``buffer`` above ``site.block``, or ``(None, False)`` for a parameter."""
    for stmt in reversed(site.path[:-1]):
        if isinstance(stmt, S.Block):
            if any(b is buffer for b in stmt.alloc_buffers):
                return stmt, True
            if any(m.buffer is buffer for m in stmt.match_buffers):
                return stmt, False
    return None, False


class _LayoutRewriter(StmtExprMutator):
    """TVM's ``TransformLayoutRewriter`` (without the producer-replacement plan)."""

    def __init__(self, old: Buffer, new: Buffer, index_map: IndexMap) -> None:
        super().__init__()
        self.old, self.new, self.index_map = old, new, index_map
        self.ana = Analyzer()
        self.reuse: dict[S.Block, S.Block] = {}

    def _map(self, indices: Sequence[PrimExpr]) -> tuple[PrimExpr, ...]:
        return tuple(self.ana.simplify(i) for i in self.index_map.map_indices(list(indices)))

    def visit_for_(self, op: S.For) -> S.Stmt:
        self.ana.bind(op.loop_var, Range.from_min_extent(op.min, op.extent))
        return super().visit_for_(op)

    def visit_buffer_load_(self, op: E.BufferLoad) -> Any:
        new = super().visit_buffer_load_(op)
        if op.buffer is self.old:
            return new.with_changes(buffer=self.new, indices=self._map(new.indices))
        return new

    def visit_buffer_store_(self, op: S.BufferStore) -> S.Stmt:
        new = super().visit_buffer_store_(op)
        if op.buffer is self.old:
            return new.with_changes(buffer=self.new, indices=self._map(new.indices))
        return new

    def visit_block_(self, op: S.Block) -> S.Stmt:
        for iv in op.iter_vars:
            if iv.dom is not None:
                self.ana.bind(iv.var, iv.dom)
        new = super().visit_block_(op)
        touched = any(r.buffer is self.old for r in (*new.reads, *new.writes))
        if touched:
            reads, writes = get_block_read_write_region(new)
            pick = lambda regions: next(r for r in regions if r.buffer is self.new)  # noqa: E731
            new = new.with_changes(
                reads=tuple(pick(reads) if r.buffer is self.old else r for r in new.reads),
                writes=tuple(pick(writes) if r.buffer is self.old else r for r in new.writes))
        if any(b is self.old for b in new.alloc_buffers):
            new = new.with_changes(alloc_buffers=tuple(
                self.new if b is self.old else b for b in new.alloc_buffers))
        if new is not op:
            self.reuse[op] = new
        return new


def _pad_value_map(pad_value: Any, ndim: int, buffer: Buffer) -> IndexMap | None:
    """``pad_value`` as a one-output IndexMap over the new indices; numbers and constants
    become constants of the buffer's dtype."""
    from ...tir import op as tir_op  # pylint: disable=import-outside-toplevel

    if pad_value is None:
        return None
    imap = pad_value
    if not isinstance(imap, IndexMap):
        if callable(pad_value):
            imap = IndexMap.from_func(pad_value, ndim=ndim, index_dtype="int32")
        else:
            try:
                value = tir_op.convert(pad_value)
            except (TypeError, ValueError) as exc:  # a tuple, a string, 10**30...
                raise X.TransformationPaddingIndexMapError(
                    reason=f"pad_value {pad_value!r} for buffer \"{buffer.name}\" is not a "
                    f"number, a PrimExpr, an IndexMap or a function of the indices: {exc}"
                ) from None
            imap = IndexMap([E.Var(f"i{k}", "int32") for k in range(ndim)], [value])
    outs = imap.final_indices
    if len(outs) == 1 and isinstance(outs[0], (IntImm, FloatImm)) and outs[0].dtype != buffer.dtype:
        imap = imap.with_changes(final_indices=(tir_op.const(outs[0].value, buffer.dtype),))
    return imap


def _check_pad_value(pad: IndexMap, buffer: Buffer) -> None:
    if len(pad.final_indices) != 1:
        raise X.TransformationPaddingIndexMapError(
            reason=f"The IndexMap specifying pad_value has {len(pad.final_indices)} outputs, "
            "should only have one output")
    if pad.final_indices[0].dtype != buffer.dtype:
        raise X.TransformationPaddingTypeError(
            reason=f"Buffer {buffer.name} has elements of type {buffer.dtype}, but the "
            f"transformation fills padding with a value of type {pad.final_indices[0].dtype}")
    bad: list[Any] = []
    post_order_visit(pad.final_indices[0], lambda n: bad.append(n) if isinstance(
        n, E.BufferLoad) and n.buffer is not buffer else None)
    if bad:
        raise X.TransformationPaddingExpressionError(
            reason=f"Pad value may only contain BufferLoad from the transformed buffer "
            f"{buffer.name}, but it loads from {bad[0].buffer.name}")


def _padding_stage(new: Buffer, inverse: IndexMap, predicate: PrimExpr,
                   pad: IndexMap) -> S.Stmt:
    """TVM's epilogue plan: ``buffer_{name}_padding`` writing the pad value on the padding."""
    loop_vars = list(inverse.initial_indices)
    ivs = [E.IterVar(Range.from_min_extent(IntImm(d.dtype, 0), d),
                     E.Var(f"v_{v.name_hint}", v.dtype), E.IterVarType.DataPar)
           for v, d in zip(loop_vars, new.shape)]
    idx = tuple(iv.var for iv in ivs)
    value = pad.map_indices(list(idx))[0]
    write = S.BufferRegion(new, tuple(Range.from_min_extent(i, IntImm(i.dtype, 1)) for i in idx))
    block = S.Block(tuple(ivs), (), (write,), f"buffer_{new.name}_padding",
                    S.BufferStore(new, value, idx))
    stmt: S.Stmt = S.BlockRealize(tuple(loop_vars), predicate, block)
    for var, dim in reversed(list(zip(loop_vars, new.shape))):
        stmt = S.For(var, IntImm(var.dtype, 0), dim, S.ForKind.SERIAL, stmt)
    return stmt


def _insert_after_writer(scope_old: S.Block, scope_new: S.Block, buffer: Buffer,
                         stage: S.Stmt) -> S.Block:
    ws = U.writers(scope_old, buffer)
    seq = list(scope_old.body.seq) if isinstance(scope_old.body, S.SeqStmt) else [scope_old.body]
    pos = 0
    if ws:
        pos = next(i for i, s in enumerate(seq) if U.path_to(s, ws[-1]) is not None) + 1
    return scope_new.with_changes(body=U.insert_stage(scope_new.body, pos, stage))


def transform_layout_impl(body: S.Stmt, block: S.Block, buffer: Buffer, index_map: IndexMap,
                     pad_value: Any = None, assume_injective_transform: bool = False
                     ) -> LayoutResult:
    """TVM's ``TransformLayout`` of ``buffer`` (accessed by ``block``) in function ``body``.

    Raises:
        BufferIsSubregionError: the buffer is a ``match_buffer`` of a block;
        TransformLayoutBufferError: the map's arity differs from the buffer's rank;
        NotBijectiveAffineIndexMapError: the map is not an affine map of the buffer's indices;
        IndexMapRangeError: an output index does not range from 0 (``i + 1``);
        TransformationIntroducesPaddingError: the map pads and no ``pad_value`` was given;
        TransformationPaddingIndexMapError / TypeError / ExpressionError: a bad pad value.
    """
    site = U.locate(body, block)
    if len(index_map.initial_indices) != len(buffer.shape):
        raise X.TransformLayoutBufferError(reason=f"the index map takes {len(index_map.initial_indices)} "
                                f"indices but buffer {buffer.name} has rank {len(buffer.shape)}")
    index_map = legalize_index_map_dtype(index_map, buffer.shape)
    defining, is_alloc = _defining_site(site, buffer)
    if defining is not None and not is_alloc:
        raise X.BufferIsSubregionError(reason=f"The input buffer {buffer.name} is defined in "
                                "`match_buffer` of a block, it is expected to be a function "
                                "parameter or allocated by a block.")
    pad = _pad_value_map(pad_value, len(index_map.final_indices), buffer)
    if pad is not None:
        _check_pad_value(pad, buffer)
    scope = defining if defining is not None else site.scope
    inverse: IndexMap | None = None
    predicate: PrimExpr = IntImm("bool", 0)
    if not assume_injective_transform:
        try:
            inverse, predicate = index_map.non_surjective_inverse(list(buffer.shape))
        except ValueError as err:
            raise X.NotBijectiveAffineIndexMapError(reason=f"the transformation {index_map.script()} of buffer "
                                     f"{buffer.name}: {err}") from None
    has_padding = not (isinstance(predicate, IntImm) and predicate.value == 0)
    new_shape = tuple(_map_shape(index_map, list(buffer.shape), block,
                                 f"buffer {buffer.name}"))
    if has_padding and pad is None:
        raise X.TransformationIntroducesPaddingError(
            reason=f"The transformation {index_map.script()} applied on buffer {buffer.name} of "
            f"shape {[d.script() for d in buffer.shape]} would result in shape "
            f"{[d.script() for d in new_shape]}. However, this would introduce padding wherever "
            f"{predicate.script()} is true.")
    new = buffer.with_changes(shape=new_shape)
    rewriter = _LayoutRewriter(buffer, new, index_map)
    new_scope = cast(S.Block, rewriter.visit_stmt(scope))
    if has_padding:  # (then the inverse was computed and a pad value given)
        new_scope = _insert_after_writer(scope, new_scope, buffer,
                                         _padding_stage(new, cast(IndexMap, inverse), predicate,
                                                        cast(IndexMap, pad)))
    reuse = dict(rewriter.reuse)
    reuse[scope] = new_scope
    param = defining is None
    return LayoutResult(scope, new_scope, reuse, [], buffer if param else None,
                        new if param else None)


def _map_shape(index_map: IndexMap, shape: list[PrimExpr], block: S.Block, what: str
               ) -> list[PrimExpr]:
    """``index_map.map_shape(shape)``; IndexMapRangeError when an output range does not start
    at 0 (``i + 1``: TVM's ``MapShape`` fails an internal check there)."""
    try:
        return index_map.map_shape(shape)
    except ValueError as exc:
        raise X.IndexMapRangeError(block, reason=f"the index map {index_map.script()} of {what}: {exc}; "
                                   "each output index must range from 0") from None


def _iter_type(expr: PrimExpr, types: dict[int, E.IterVarType]) -> E.IterVarType | None:
    found: set[E.IterVarType] = set()
    post_order_visit(expr, lambda n: found.add(types[id(n)]) if id(n) in types else None)
    return found.pop() if len(found) == 1 else None


def transform_block_layout_impl(body: S.Stmt, block: S.Block, index_map: IndexMap) -> PrimitiveResult:
    """TVM's ``TransformBlockLayout``: see the module docstring. The loops above the block must
    start at 0, hold only this block and bind its iters trivially (``v_k = loop_k``).

    Raises:
        NotLeafBlockError, IndexMapNotApplicableToBlockIterError (wrong arity),
        NotTrivialBindingError (loops not from 0, with other children, or non-trivial
        bindings), NotBijectiveAffineIndexMapError, OpaqueNewIterTypeError,
        IndexMapRangeError (an output index not from 0), RootBlockError.
    """
    site = U.locate(body, block)
    if U.child_blocks(block):
        raise X.NotLeafBlockError(block)
    if len(index_map.initial_indices) != len(block.iter_vars):
        raise X.IndexMapNotApplicableToBlockIterError(
            block, reason=f"The index map {index_map.script()} can't be applied to block iters "
            f'of block "{block.name_hint}" because the number of parameters mismatch. Expected: '
            f"{len(index_map.initial_indices)}, actual: {len(block.iter_vars)}")
    _check_trivial_nest(site)
    index_map = legalize_index_map_dtype(index_map, [iv.var for iv in block.iter_vars])
    old_vars = [iv.var for iv in block.iter_vars]
    extents = [cast(Range, iv.dom).extent for iv in block.iter_vars]  # (a block's iter vars)
    mapped = index_map.map_indices(old_vars)
    shape = _map_shape(index_map, extents, block, "the block iters")
    types = {id(iv.var): iv.iter_type for iv in block.iter_vars}
    new_ivs = []
    for i, (expr, ext) in enumerate(zip(mapped, shape)):
        kind = E.IterVarType.DataPar if U.is_const(ext, 1) else _iter_type(expr, types)
        if kind is None:
            raise OpaqueNewIterTypeError(block, reason=f"Cannot detect the block iter type for new "
                                         f"iter value {expr.script()} because it contains more "
                                         "than one type of original iter vars")
        var = E.Var(f"v{i}", expr.dtype)
        new_ivs.append(E.IterVar(Range.from_min_extent(IntImm(var.dtype, 0), ext), var, kind))
    try:
        inverse = index_map.inverse(extents)
    except ValueError as err:
        raise X.NotBijectiveAffineIndexMapError(reason=f"The index map {index_map.script()} is not bijective "
                                 f"affine over the iteration space of block "
                                 f'"{block.name_hint}": {err}') from None
    back = inverse.map_indices([iv.var for iv in new_ivs])
    new_block = substitute(block, dict(zip(old_vars, back))).with_changes(iter_vars=tuple(new_ivs))
    new_block = _simplify_accesses(new_block, new_ivs)
    loop_vars = [E.Var(f"ax{i}", iv.var.dtype) for i, iv in enumerate(new_ivs)]
    at_loops = {iv.var: lv for iv, lv in zip(new_ivs, loop_vars)}
    pred = _remapped_predicate(site, [substitute(b, at_loops) for b in back],
                               dict(zip(loop_vars, shape)))
    stmt: S.Stmt = site.realize.with_changes(iter_values=tuple(loop_vars), block=new_block,
                                             predicate=pred)
    for var, ext in reversed(list(zip(loop_vars, shape))):
        stmt = S.For(var, IntImm(var.dtype, 0), ext, S.ForKind.SERIAL, stmt)
    target = site.loops[0] if site.loops else site.realize
    return PrimitiveResult(target, stmt, {block: new_block}, [new_block])


def _remapped_predicate(site: U.Site, old_values: Sequence[PrimExpr],
                        new_loops: dict[Any, PrimExpr]) -> PrimExpr:
    """The block's predicate over the new loops ``new_loops`` (var -> extent): each old loop is
    the old iter it binds, which is ``old_values[k]`` over the new loops (the inverse map); a
    loop of extent 1 that binds no iter is its min. TVM keeps the predicate as it is, over the old loops, which no longer
    exist (ill-formed IR; a split by a non-divisor with an outer loop of extent 1 gives such a
    predicate, ``T.where(i_0 * 16 + i_1 < 6)`` with ``vi = i_1``).

    Raises:
        NotTrivialBindingError: the predicate uses a loop of extent > 1 that binds no iter.
    """
    pred = site.realize.predicate
    if U.is_const(pred, 1):
        return pred
    vmap: dict[Any, PrimExpr] = {}
    for v, new in zip(site.realize.iter_values, old_values):
        if isinstance(v, E.Var):
            vmap[v] = new
    for lp in site.loops:
        if lp.loop_var in vmap:
            continue
        if not U.is_const(lp.extent, 1) and A.uses_var(pred, lp.loop_var):
            raise X.BlockHasNontrivialBindingError(
                site.block, reason=f'the predicate of block "{site.block.name_hint}" uses loop '
                f'"{lp.loop_var.name_hint}", which binds none of its iters')
        vmap[lp.loop_var] = lp.min
    ana = Analyzer()
    for var, ext in new_loops.items():  # a clause the new loops' ranges imply goes
        ana.bind(var, Range.from_min_extent(IntImm(var.dtype, 0), ext))
    return ana.simplify(substitute(pred, vmap))


def _check_trivial_nest(site: U.Site) -> None:
    block, realize = site.block, site.realize
    for lp in site.loops:
        if not U.is_const(lp.min, 0):
            raise X.BlockHasNontrivialBindingError(lp, reason=f'loop "{lp.loop_var.name_hint}" does not start '
                                    "with 0")
    if site.loops and len(U.child_blocks(site.loops[0])) != 1:
        raise X.BlockHasNontrivialBindingError(site.loops[0], reason="the loops above the block have other "
                                "child blocks")
    loop_vars = {id(lp.loop_var) for lp in site.loops}
    for iv, v in zip(block.iter_vars, realize.iter_values):
        trivial = (isinstance(v, E.Var) and id(v) in loop_vars) or U.is_const(v)
        if not trivial or not U.is_const(cast(Range, iv.dom).min, 0):
            raise X.BlockHasNontrivialBindingError(block, reason=f'block "{block.name_hint}" does not have a '
                                    f"trivial binding: {iv.var.name_hint} = {v.script()}")


def _simplify_accesses(block: S.Block, ivs: Sequence[E.IterVar]) -> S.Block:
    """Simplify the block's buffer indices and regions with its new iter domains (TVM's
    ``BlockBufferAccessSimplifier``)."""
    ana = Analyzer()
    for iv in ivs:
        ana.bind(iv.var, cast(Range, iv.dom))

    class _Simp(StmtExprMutator):
        def visit_buffer_load_(self, op: E.BufferLoad) -> Any:
            new = super().visit_buffer_load_(op)
            return new.with_changes(indices=tuple(ana.simplify(i) for i in new.indices))

        def visit_buffer_store_(self, op: S.BufferStore) -> S.Stmt:
            new = super().visit_buffer_store_(op)
            return new.with_changes(indices=tuple(ana.simplify(i) for i in new.indices))

    def region(r: S.BufferRegion) -> S.BufferRegion:
        return S.BufferRegion(r.buffer, tuple(Range.from_min_extent(
            ana.simplify(x.min), ana.simplify(x.extent)) for x in r.region))

    simp = _Simp()
    return block.with_changes(
        body=simp.visit_stmt(block.body),
        init=simp.visit_stmt(block.init) if block.init is not None else None,
        reads=tuple(region(r) for r in block.reads), writes=tuple(region(r) for r in block.writes))


# ----------------------------------------------------------------------- schedule methods
def _as_index_map(value: Any, ndim: int, dtype: Any, block: Any = None) -> IndexMap:
    """``value`` (an IndexMap or a function of ``ndim`` indices) as an IndexMap;
    InvalidArgumentError (naming ``block``) for anything else (``None`` included)."""
    if isinstance(value, IndexMap):
        return value
    if callable(value):
        imap, seps = IndexMap.from_func_with_separators(value, ndim=ndim, index_dtype=str(dtype))
        if seps:
            raise X.TransformLayoutBufferError(reason="IndexMap.AXIS_SEPARATOR is not supported "
                                               "by transform_layout; use set_axis_separator")
        return imap
    from ..errors import InvalidArgumentError  # pylint: disable=import-outside-toplevel
    raise InvalidArgumentError(block, reason=f"the index map must be an IndexMap or a function "
                               f"of the indices, got {type(value).__name__} {value!r}")


def _normalize_layout(sch: Any, args: dict) -> None:
    from ._args import as_block_rv, block_of, normalize_buffer  # pylint: disable=C0415

    args["block"] = as_block_rv(sch, args["block"])
    kind, index = normalize_buffer(sch, args["block"], args["buffer"])
    args["buffer"] = (kind, index)
    block = block_of(sch, args["block"])
    buf = (block.reads if kind == "read" else block.writes)[index].buffer
    dtype = block.iter_vars[0].var.dtype if block.iter_vars else buf.shape[0].dtype
    imap = _as_index_map(args["index_map"], len(buf.shape), dtype, block)
    if len(imap.initial_indices) == len(buf.shape):
        imap = legalize_index_map_dtype(imap, buf.shape)
    args["index_map"] = imap
    pad = args.get("pad_value")
    if pad is not None and not isinstance(pad, IndexMap):
        args["pad_value"] = _pad_value_map(pad, len(args["index_map"].final_indices), buf)


def _normalize_block_layout(sch: Any, args: dict) -> None:
    from ._args import as_block_rv, block_of  # pylint: disable=C0415

    args["block"] = as_block_rv(sch, args["block"])
    block = block_of(sch, args["block"])
    dtype = block.iter_vars[0].var.dtype if block.iter_vars else "int32"
    imap = _as_index_map(args["index_map"], len(block.iter_vars), dtype, block)
    if len(imap.initial_indices) == len(block.iter_vars):
        imap = legalize_index_map_dtype(imap, [iv.var for iv in block.iter_vars])
    args["index_map"] = imap


def _register() -> None:
    from .. import index_map_text  # noqa: F401  pylint: disable=C0415,W0611  (IndexMap codec)
    from ..schedule import primitive  # pylint: disable=import-outside-toplevel
    from ._args import apply_result, block_of, func_body  # pylint: disable=C0415

    @primitive("TransformLayout", attrs=("buffer", "assume_injective_transform"),
               normalize=_normalize_layout)
    def transform_layout(sch: Any, block: Any, buffer: Any, index_map: Any, pad_value: Any = None,
                         assume_injective_transform: bool = False) -> None:
        """Re-layout ``buffer`` (``("read"|"write", i)``, a name or a Buffer of ``block``) by
        ``index_map`` (an IndexMap or a function of the indices), rewriting every access in
        its scope; ``pad_value`` (a value, a function of the new indices or an IndexMap) fills
        the padding a non-surjective map introduces (``Schedule.transform_layout``).

        Raises:
            ScheduleError: BufferIsSubregionError, TransformLayoutBufferError,
                NotBijectiveAffineIndexMapError, IndexMapRangeError,
                TransformationIntroducesPaddingError,
                TransformationPadding{IndexMap,Type,Expression}Error.
        """
        kind, index = buffer
        blk = block_of(sch, block)
        buf = (blk.reads if kind == "read" else blk.writes)[index].buffer
        res = transform_layout_impl(func_body(sch, block), blk, buf, index_map, pad_value,
                                    assume_injective_transform)
        apply_result(sch, res)
        if res.old_buffer is not None:
            _replace_param_buffer(sch, block, res.old_buffer, cast(Buffer, res.new_buffer))

    @primitive("TransformBlockLayout", normalize=_normalize_block_layout)
    def transform_block_layout(sch: Any, block: Any, index_map: Any) -> None:
        """Remap the iteration space of ``block`` by ``index_map`` (bijective, affine), with new
        loops over the new domain (``Schedule.transform_block_layout``).

        Raises:
            ScheduleError: NotLeafBlockError, IndexMapNotApplicableToBlockIterError,
                NotTrivialBindingError, NotBijectiveAffineIndexMapError, OpaqueNewIterTypeError,
                IndexMapRangeError, RootBlockError.
        """
        res = transform_block_layout_impl(func_body(sch, block), block_of(sch, block), index_map)
        apply_result(sch, res)


def _replace_param_buffer(sch: Any, block: Any, old: Buffer, new: Buffer) -> None:
    """Step 4 of TVM's ``TransformLayout``: the function's ``buffer_map`` gets the new buffer."""
    state = sch.state
    name = state.func_of(sch._sref(block))  # pylint: disable=protected-access
    func = state.mod[name]
    bmap = {k: (new if v is old else v) for k, v in func.buffer_map.items()}
    state.mod = state.mod.with_function(name, func.with_changes(buffer_map=bmap))


_register()
