"""compute_inline, reverse_compute_inline (mirrors
``src/tir/schedule/primitive/compute_inline.cc``)."""
from __future__ import annotations

from typing import Any, cast

from ...ir.expr import IntImm, Range
from ...tir.block_access import get_block_read_write_region
from ...tir.expr import BufferLoad, IterVarType, Var
from ...tir.stmt import Block, BufferStore
from ...tir.stmt_functor import ir_transform, substitute
from ...tir.function import PrimFunc
from .. import analysis as A
from .. import errors as err
from ..schedule import Schedule, primitive
from ..state import StmtSRef
from ..transform import block_reuse, deep_swap, replace_objects


def _single_store(block: Block) -> BufferStore:
    """The block body as one BufferStore (TVM ``BodyAnalysisError`` otherwise)."""
    body = block.body
    if not isinstance(body, BufferStore):
        raise err.BodyAnalysisError(block, reason="the block body is not a single BufferStore")
    return body


def _plain_indices(block: Block, indices: Any, what: str) -> list[Var]:
    ivars = [iv.var for iv in block.iter_vars]
    out: list[Var] = []
    for i in indices:
        if not isinstance(i, Var) or all(i is not v for v in ivars) or any(i is o for o in out):
            raise err.BodyAnalysisError(
                block, reason=f"the {what} indices must be distinct block iter vars, got {i!r}")
        out.append(i)
    return out


def _value_over_indices(block: Block, value: Any, params: list[Var]) -> Any:
    """The stored value with only the store's index vars free: an iter var of extent 1 it uses
    besides (after a reindex, ``pad_reindex[vc, vh, vw] = ... data[vn, ...]``) is its one
    value; any other one is a BodyAnalysisError. Before, such a var was left undefined in the
    consumers (ill-formed IR; found by the wide fuzzer: conv2d_nchw.py, reindex of the pad
    block's write, then compute_inline, --hypothesis-seed=10)."""
    from ...tir.stmt_functor import post_order_visit  # pylint: disable=import-outside-toplevel
    used: list[Var] = []
    post_order_visit(value, lambda n: used.append(n) if isinstance(n, Var) else None)
    fixed = {}
    for iv in block.iter_vars:
        if any(iv.var is u for u in used) and all(iv.var is not p for p in params):
            dom = cast(Range, iv.dom)  # (a block iter var's domain)
            if not (isinstance(dom.extent, IntImm) and dom.extent.value == 1):
                raise err.BodyAnalysisError(
                    block, reason=f"the stored value uses iter var {iv.var.name_hint}, which "
                    "is not one of the store's indices")
            fixed[iv.var] = dom.min
    return substitute(value, fixed) if fixed else value


def _check_no_init(block: Block, what: str) -> None:
    """TVM's ``HasInitBlock::Check``: a reduction block (with ``T.init()``) cannot be inlined."""
    if block.init is not None:
        raise err.HasInitBlock(block, reason=f"{what} cannot inline a reduction block")


def _check_leaf(sch: Schedule, block_sref: Any, scope_root: Any) -> None:
    if len(A.get_child_blocks(sch.state, scope_root)) == 1:
        raise err.OnlyLeafError(block_sref.stmt, scope_root.stmt)


def _update_regions(block: Block) -> Block:
    reads, _ = get_block_read_write_region(block.with_changes(reads=(), writes=()))
    return block.with_changes(reads=tuple(reads))


def _remove_block(sch: Schedule, scope_root: Any, block_sref: Any, root_body: Any,
                  buffer: Any) -> Any:
    del scope_root, buffer
    from .compute_at import _leaf_to_remove  # pylint: disable=import-outside-toplevel
    removal = _leaf_to_remove(block_sref) or A.get_block_realize(sch.state, block_sref)
    return deep_swap(root_body, {id(removal): None})


def _drop_alloc(stmt: Any, buffer: Any) -> Any:
    if any(b is buffer for b in stmt.alloc_buffers):
        return stmt.with_changes(alloc_buffers=tuple(b for b in stmt.alloc_buffers
                                                     if b is not buffer))
    return stmt


def _check_common(sch: Schedule, block_sref: Any) -> tuple[Any, Any]:
    scope_root = cast(StmtSRef, A.get_scope_root(block_sref))  # (checked: not the root block)
    if scope_root is None:
        raise err.InvalidArgumentError(block_sref.stmt, reason="cannot inline the root block")
    A.check_stage_pipeline(sch.state, scope_root)
    block = block_sref.stmt
    store = _single_store(block)
    func = cast(PrimFunc, sch.mod[sch.state.func_of(block_sref)])
    if store.buffer in set(func.buffer_map.values()):
        raise err.NotOutputBlockError(block, reason="the buffer it writes is a function "
                                      "parameter, so it cannot be inlined")
    _check_leaf(sch, block_sref, scope_root)
    return scope_root, store


@primitive("ComputeInline")
def compute_inline(sch: Schedule, block: Any) -> None:
    """Inline a producer block into its consumers: each load of the buffer it writes becomes
    its value expression (``Schedule.compute_inline``).

    Raises:
        ScheduleError: ``HasInitBlock`` (a reduction block), ``NotStagePipelineError`` (the
            scope's producers do not cover what is read), ``BodyAnalysisError`` (not a
            single ``B[v...] = expr`` over distinct iter vars), ``NotCompleteBlockError``,
            ``NotOutputBlockError`` (it writes a function
            parameter), ``OnlyLeafError``, ``OpaqueAccessError`` (the buffer is used other than
            by BufferLoad).
    """
    block_sref = sch._block_sref(block)  # pylint: disable=protected-access
    _check_no_init(block_sref.stmt, "compute_inline")
    scope_root, store = _check_common(sch, block_sref)
    blk = block_sref.stmt
    reason = A.complete_block_reason(sch.state, block_sref, scope_root)
    if reason is not None:
        raise err.NotCompleteBlockError(blk, reason=reason)
    params = _plain_indices(blk, store.indices, "store")
    buf = store.buffer
    value = _value_over_indices(blk, store.value, params)

    def post(n: Any) -> Any:
        if isinstance(n, BufferLoad) and n.buffer is buf:
            return substitute(value, dict(zip(params, n.indices)))
        return None
    root = scope_root.stmt
    body = _remove_block(sch, scope_root, block_sref, root.body, buf)
    new_body = ir_transform(body, None, post, ["tir.BufferLoad"])
    changed = block_reuse(body, new_body)
    new_body = replace_objects(new_body, {id(n): _update_regions(n) for n in changed.values()})
    _check_no_other_use(blk, new_body, buf)
    # ``body`` has the same blocks as ``root.body`` less the inlined one, in order
    reuse = block_reuse(body, new_body)
    sch.state.replace(scope_root, _drop_alloc(root.with_changes(body=new_body), buf), reuse)


def _check_no_other_use(block: Block, body: Any, buf: Any) -> None:
    from ..transform import blocks_in  # pylint: disable=import-outside-toplevel
    for b in blocks_in(body):
        if any(r.buffer is buf for r in (*b.reads, *b.writes)) or \
                any(m.source.buffer is buf for m in b.match_buffers):
            raise err.OpaqueAccessError(
                block, reason=f'block "{b.name_hint}" accesses buffer "{buf.name}" other than '
                "by loads, so it cannot be inlined")


@primitive("ReverseComputeInline")
def reverse_compute_inline(sch: Schedule, block: Any) -> None:
    """Inline a consumer block into its single producer: the producer computes the consumer's
    expression of its value and writes the consumer's buffer (``Schedule.reverse_compute_inline``).

    Raises:
        ScheduleError: ``HasInitBlock`` (the consumer is a reduction block),
            ``NotStagePipelineError``,
            ``BodyAnalysisError`` (the consumer is not a single store reading the
            buffer once with distinct iter vars), ``NonSingleProducerError`` (also when the
            producer feeds another block), ``NotOutputBlockError`` (the producer writes a
            function parameter), ``NotCompleteBlockError`` (the consumer or producer),
            ``OnlyLeafError``.
    """
    block_sref = sch._block_sref(block)  # pylint: disable=protected-access
    scope_root = cast(StmtSRef, A.get_scope_root(block_sref))  # (checked: not the root block)
    if scope_root is None:
        raise err.InvalidArgumentError(block_sref.stmt, reason="cannot inline the root block")
    consumer = block_sref.stmt
    _check_no_init(consumer, "reverse_compute_inline")
    A.check_stage_pipeline(sch.state, scope_root)
    cstore = _single_store(consumer)
    if any(iv.iter_type != IterVarType.DataPar for iv in consumer.iter_vars):
        raise err.NotCompleteBlockError(consumer, reason="it has a non data-parallel iter var")
    if not _is_true(A.get_block_realize(sch.state, block_sref).predicate):
        raise err.BodyAnalysisError(consumer, reason="a consumer with a predicate (T.where) "
                                    "cannot be inlined")
    _check_leaf(sch, block_sref, scope_root)
    producer_sref, pstore = _single_producer(sch, block_sref, scope_root)
    producer = producer_sref.stmt
    buf = pstore.buffer
    _check_only_consumer(sch, block_sref, producer_sref, scope_root, buf)
    loads: list[BufferLoad] = []
    from ...tir.stmt_functor import post_order_visit  # pylint: disable=import-outside-toplevel
    post_order_visit(cstore.value, lambda n: loads.append(n)
                     if isinstance(n, BufferLoad) and n.buffer is buf else None)
    if len(loads) != 1:
        raise err.BodyAnalysisError(consumer, reason=f'it reads buffer "{buf.name}" '
                                    f"{len(loads)} times; exactly once is required")
    cvars = _plain_indices(consumer, loads[0].indices, "load")
    if len(cvars) != len(consumer.iter_vars):
        raise err.BodyAnalysisError(consumer, reason="the load must use every consumer iter var")
    pvals = list(pstore.indices)
    vmap = dict(zip(cvars, pvals))
    value = ir_transform(cstore.value, None, lambda n: pstore.value
                         if isinstance(n, BufferLoad) and n.buffer is buf else None,
                         ["tir.BufferLoad"])
    new_store = BufferStore(cstore.buffer, substitute(value, vmap),
                            [substitute(i, vmap) for i in cstore.indices])
    new_prod = producer.with_changes(body=new_store)
    reads, writes = get_block_read_write_region(new_prod.with_changes(reads=(), writes=()))
    new_prod = new_prod.with_changes(reads=tuple(reads), writes=tuple(writes))
    realize = A.get_block_realize(sch.state, producer_sref)
    predicate = _inlined_predicate(producer_sref, realize, consumer, vmap)
    root = scope_root.stmt
    body = _remove_block(sch, scope_root, block_sref, root.body, buf)
    body = replace_objects(body, {id(realize): realize.with_changes(
        block=new_prod, predicate=realize.predicate if predicate is None else predicate)})
    sch.state.replace(scope_root, _drop_alloc(root.with_changes(body=body), buf),
                      {producer: new_prod})


def _is_true(pred: Any) -> bool:
    from ...ir.expr import IntImm  # pylint: disable=import-outside-toplevel
    return pred is None or pred is True or (isinstance(pred, IntImm) and pred.value == 1)


def _inlined_predicate(producer_sref: Any, realize: Any, consumer: Block,
                       vmap: dict) -> Any:
    """The producer's predicate after the consumer is inlined into it (TVM's
    ``BuildInlinedConsumerPredicate``): the consumer's iter vars, written through the producer's
    store indices, must stay in the consumer's domain -- a producer over 128 rows feeding a
    consumer over 127 gets ``T.where(i < 127)``. ``None`` when that always holds (the producer
    keeps its predicate).

    Raises:
        ProducerHasNonTrivialPredicateError: the producer already has a predicate that the new one
            does not imply (TVM #13338's check; v0.20 would overwrite it and drop it).
    """
    from ...arith import Analyzer  # pylint: disable=import-outside-toplevel
    from ...tir import op  # pylint: disable=import-outside-toplevel
    block = realize.block
    ana = Analyzer()
    for iv in block.iter_vars:
        ana.bind(iv.var, iv.dom)
    pred: Any = None
    for iv in consumer.iter_vars:
        e = vmap[next(v for v in vmap if v is iv.var)]
        dom = cast(Range, iv.dom)  # (a block iter var's domain)
        cond = op.logical_and(op.greater_equal(e, dom.min),
                              op.less(e, op.add(dom.min, dom.extent)))
        pred = cond if pred is None else op.logical_and(pred, cond)
    if pred is None or _is_true(ana.simplify(pred)):
        return None
    outer = A.loop_analyzer(producer_sref.parent)
    bindings = {iv.var: v for iv, v in zip(block.iter_vars, realize.iter_values)}
    new_pred = outer.simplify(substitute(ana.simplify(pred), bindings))
    if not _is_true(realize.predicate):
        with outer.constraint_scope(new_pred):
            implied = outer.can_prove(realize.predicate)
        if not implied:
            raise err.ProducerHasNonTrivialPredicateError(
                block, reason=f"the producer block has a non-trivial predicate "
                f"{realize.predicate.script()} that cannot be implied by the synthesized "
                f"predicate {new_pred.script()} of the new inlined block")
    return new_pred


def _check_only_consumer(sch: Schedule, block_sref: Any, producer_sref: Any, scope_root: Any,
                         buf: Any) -> None:
    """The producer's store is replaced by the consumer's, so nothing else may need ``buf``:
    NotOutputBlockError when it is a function parameter (the output would never be written),
    NonSingleProducerError when another block reads it (TVM 0.27 refuses both as "an output
    block"; before, the first computed wrong numbers and the second built ill-formed IR)."""
    producer, consumer = producer_sref.stmt, block_sref.stmt
    func = cast(PrimFunc, sch.mod[sch.state.func_of(block_sref)])
    if any(b is buf for b in func.buffer_map.values()):
        raise err.NotOutputBlockError(
            producer, reason=f'the buffer "{buf.name}" it writes is a function parameter, so '
            f'reverse_compute_inline of block "{consumer.name_hint}" into it would leave that '
            "output unwritten")
    from ..block_scope import DepKind  # pylint: disable=import-outside-toplevel
    scope = sch.state.get_block_scope(scope_root)
    for dep in scope.get_deps_by_src(producer_sref):
        if dep.dst is not block_sref and dep.kind != DepKind.WAR:  # (WAR: what it reads)
            raise err.NonSingleProducerError(
                consumer, reason=f'its producer block "{producer.name_hint}" also feeds block '
                f'"{dep.dst.stmt.name_hint}"; reverse_compute_inline needs the block to be the '
                "producer's only consumer")


def _single_producer(sch: Schedule, block_sref: Any, scope_root: Any) -> tuple[Any, Any]:
    producers = _producers(sch, block_sref, scope_root)
    if len(producers) != 1:
        raise err.NonSingleProducerError(
            block_sref.stmt,
            reason=f"it has {len(producers)} producer blocks; exactly one is required")
    producer = producers[0].stmt
    pstore = _single_store(producer)
    if A.complete_block_reason(sch.state, producers[0], scope_root) is not None or \
            producer.init is not None:
        raise err.NotCompleteBlockError(producer, reason="the producer is not a complete block")
    return producers[0], pstore


def _producers(sch: Schedule, block_sref: Any, scope_root: Any) -> list[Any]:
    from ..block_scope import DepKind  # pylint: disable=import-outside-toplevel
    out: list[Any] = []
    for d in sch.state.get_block_scope(scope_root).get_deps_by_dst(block_sref):
        if d.kind == DepKind.RAW and all(o is not d.src for o in out):
            out.append(d.src)
    return out
