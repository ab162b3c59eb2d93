"""``create_prim_func``: a TE graph as a block-form PrimFunc (mirrors
``tvm.te.create_prim_func`` / ``src/te/operation/create_primfunc.cc``).

Each ComputeOp becomes a loop nest (one serial loop per axis, named after the axis) around a
block named after the op, with iter vars ``v_<axis>`` bound to the loops, ``T.reads/T.writes``
detected from its body, and for a reduction an init statement storing the reducer's identity.
The given tensors are the parameters, in order (``T.Buffer``s); every other computed tensor is
an ``alloc_buffer`` of the root block. The function gets ``{"global_symbol": "main",
"tir.noalias": True}``.

Symbolic shapes: a variable that appears in some buffer shape only inside an expression (seed
004's ``2 * floordiv(m, 2)``), or only in the computation, is not defined by any buffer; it
becomes an ``int64`` parameter after the buffers, in order of first appearance (the
``call_tir_dyn`` convention).
"""
from __future__ import annotations

from typing import Any, Sequence, cast

from tirkit import tir
from tirkit.arith import Analyzer
from tirkit.ir.deep import deep_walk
from tirkit.ir.expr import Range
from tirkit.tir.analysis import undefined_vars
from tirkit.tir.block_access import get_block_read_write_region
from tirkit.tir.stmt_functor import substitute

from .tensor import ComputeOp, ExternOp, Operation, PlaceholderOp, Tensor

__all__ = ["create_prim_func", "compute_op_stmt"]


class CreatePrimFuncError(ValueError):
    """A TE graph ``create_prim_func`` cannot turn into a PrimFunc (e.g. a placeholder that is
    not among the arguments)."""


def _topo_ops(outputs: Sequence[Tensor]) -> list[Operation]:
    order: list[Operation] = []
    seen: set[int] = set()
    stack: list[tuple[Operation, bool]] = [(t.op, False) for t in reversed(outputs)]
    while stack:
        op, done = stack.pop()
        if done:
            order.append(op)
            continue
        if id(op) in seen:
            continue
        seen.add(id(op))
        stack.append((op, True))
        stack.extend((t.op, False) for t in reversed(op.input_tensors) if id(t.op) not in seen)
    return order


class _Names:
    def __init__(self) -> None:
        self.used: dict[str, int] = {}

    def fresh(self, name: str) -> str:
        """TVM's ``FreshName``: ``B``, then ``B_1``, ``B_2``..."""
        k = self.used.get(name, 0)
        self.used[name] = k + 1
        return name if k == 0 else f"{name}_{k}"


def _index_dtype(dom: Range) -> str:
    bits = max(dom.min.dtype.bits, dom.extent.dtype.bits)
    return f"int{bits}"


def _leaf_iters(op: ComputeOp, ana: Analyzer) -> tuple[list, list, list, list, dict]:
    """Loops, block iters, bindings, store indices and the axis -> block var map of one op."""
    loops, iters, indices, remap = [], [], [], {}
    bindings: list[tir.PrimExpr] = []
    for axis in op.axis + op.reduce_axis:
        assert axis.dom is not None, "a TE axis has a domain"
        dtype = _index_dtype(axis.dom)
        loop_var = tir.Var(axis.var.name_hint, dtype)
        block_var = tir.Var("v_" + axis.var.name_hint, dtype)
        dom = Range.from_min_extent(ana.simplify(axis.dom.min), ana.simplify(axis.dom.extent))
        iters.append(tir.IterVar(dom, block_var, axis.iter_type, axis.thread_tag))
        bindings.append(loop_var)
        loops.append((loop_var, dom))
        remap[axis.var] = block_var
        if axis.iter_type != tir.IterVarType.CommReduce:
            indices.append(block_var)
    if not iters:  # a scalar output: one dummy iter, as TVM makes
        iters.append(tir.IterVar(Range(0, 1), tir.Var("vi", "int32"), tir.IterVarType.DataPar))
        bindings.append(tir.const(0, "int32"))
    return loops, iters, bindings, indices, remap


def _renew(op: ComputeOp, iters: list) -> tuple[list, list, dict]:
    """Fresh block vars for the next output's block (TVM's ``NestedScopeInfo::Renew``: SSA)."""
    iters = [tir.IterVar(iv.dom, tir.Var(iv.var.name_hint, iv.var.dtype), iv.iter_type,
                         iv.thread_tag) for iv in iters]
    axes = op.axis + op.reduce_axis
    remap = {a.var: iv.var for a, iv in zip(axes, iters)}
    indices = [iv.var for a, iv in zip(axes, iters) if a.iter_type != tir.IterVarType.CommReduce]
    return iters, indices, remap


def _block(iters: list, bindings: list, name: str, body: tir.Stmt, init: Any,
           attrs: dict) -> tir.BlockRealize:
    block = tir.Block(iters, [], [], name, body, init, annotations=dict(attrs))
    reads, writes = get_block_read_write_region(block)
    return tir.BlockRealize(bindings, tir.const(True, "bool"),
                            block.with_changes(reads=reads, writes=writes))


def _compute_stmt(op: ComputeOp, names: _Names, ana: Analyzer) -> tir.Stmt:
    loops, iters, bindings, indices, remap = _leaf_iters(op, ana)
    buffers = [t.buffer for t in op.outputs]
    stmts = []
    if isinstance(op.body[0], tir.Reduce):
        stmt, init = _reduce_stmts(op.body[0], buffers, indices, remap, ana)
        stmts.append(_block(iters, bindings, names.fresh(op.name), stmt, init, op.attrs))
    else:
        for k, (body, buf) in enumerate(zip(op.body, buffers)):
            if k:
                iters, indices, remap = _renew(op, iters)
            store = tir.BufferStore(buf, ana.simplify(substitute(body, remap)), indices)
            name = names.fresh(op.name if len(op.body) == 1 else buf.name)
            stmts.append(_block(iters, bindings, name, store, None, op.attrs))
    nest: tir.Stmt = stmts[0] if len(stmts) == 1 else tir.SeqStmt(stmts)
    for loop_var, dom in reversed(loops):
        nest = tir.For(loop_var, dom.min, dom.extent, tir.ForKind.SERIAL, nest)
    return nest


def compute_op_stmt(op: ComputeOp, used_names: Sequence[str] = ()) -> tir.Stmt:
    """The loop nest and block(s) ``create_prim_func`` makes for one ComputeOp, writing its
    outputs' buffers (what ``T.compute`` expands to inside a prim_func). Block names avoid
    ``used_names``."""
    names = _Names()
    for n in used_names:
        names.fresh(n)
    return _compute_stmt(op, names, Analyzer())


def _reduce_stmts(body: tir.Reduce, buffers: list, indices: list, remap: dict,
                  ana: Analyzer) -> tuple[tir.Stmt, tir.Stmt]:
    """The update and init statements of a reduction block (TVM's ``GenerateBodyStmt`` /
    ``GenerateInitStmt``): one store for one value; for a tuple reduction (argmax) LetStmts
    ``v_<buffer>`` of the combined values, then the stores."""
    identities = body.init if body.init else body.combiner.identity_element
    inits = [tir.BufferStore(buf, substitute(ident, remap), indices)
             for buf, ident in zip(buffers, identities)]
    init: tir.Stmt = inits[0] if len(inits) == 1 else tir.SeqStmt(inits)
    lhs = [tir.BufferLoad(buf, indices) for buf in buffers]
    rhs = [ana.simplify(substitute(src, remap)) for src in body.source]
    combined = [substitute(c, remap) for c in body.combiner(lhs, rhs)]
    if len(buffers) == 1:
        update: tir.Stmt = tir.BufferStore(buffers[0], combined[0], indices)
    else:
        temps = [tir.Var("v_" + buf.name, buf.dtype) for buf in buffers]
        update = tir.SeqStmt([tir.BufferStore(buf, t, indices) for buf, t in zip(buffers, temps)])
        for t, value in reversed(list(zip(temps, combined))):
            update = tir.LetStmt(t, value, update)
    cond = body.condition
    if not (isinstance(cond, tir.IntImm) and cond.value == 1):
        update = tir.IfThenElse(ana.simplify(substitute(cond, remap)), update)
    return update, init


def _extern_stmt(op: ExternOp, names: _Names) -> tir.Stmt:
    reads = [tir.BufferRegion.full_region(t.buffer) for t in op.inputs]
    writes = [tir.BufferRegion.full_region(t.buffer) for t in op.outputs]
    block = tir.Block([], reads, writes, names.fresh(op.name), op.body)
    return tir.BlockRealize([], tir.const(True, "bool"), block)


def _lifted_vars(params: list[tir.Var], buffer_map: dict, body: tir.Stmt) -> list[tir.Var]:
    defined = {id(d) for buf in buffer_map.values() for d in buf.shape if isinstance(d, tir.Var)}
    lifted: list[tir.Var] = []
    for buf in buffer_map.values():
        for d in buf.shape:
            for v in undefined_vars(d, []):
                if id(v) not in defined and all(v is not x for x in lifted):
                    lifted.append(v)
    for v in undefined_vars(body, params):
        if id(v) not in defined and all(v is not x for x in lifted) and not v.dtype.is_handle():
            lifted.append(v)
    return lifted


@deep_walk("create_prim_func")  # an unrolled reduction is an Add chain 20,000 deep
def create_prim_func(ops: Sequence[Any], index_dtype_override: str | None = None) -> tir.PrimFunc:
    """The block-form PrimFunc computing the tensors ``ops`` (``te.create_prim_func``).

    ``ops`` lists the function's parameters in order: the inputs (placeholders), the outputs,
    and scalar ``tir.Var`` parameters (one of the var's dtype, as TVM's ``CreatePrimFunc`` takes
    them). ``index_dtype_override`` (``"int64"``/``"int32"``) is accepted for TVM
    compatibility; index dtypes follow the shapes.

    Raises:
        TypeError: for an element of ``ops`` that is neither a te.Tensor nor a tir.Var (TVM
            silently drops it).
        CreatePrimFuncError: when a placeholder the outputs read is not among ``ops``.
    """
    del index_dtype_override
    for k, t in enumerate(ops):
        if not isinstance(t, (Tensor, tir.Var)):
            raise TypeError(f"create_prim_func: argument {k} must be a te.Tensor or a tir.Var, "
                            f"got {type(t).__name__} {t!r}")
    args = [t for t in ops if isinstance(t, Tensor)]
    arg_ids = {id(t) for t in args}
    outputs = [t for t in args if not isinstance(t.op, PlaceholderOp)]
    names, ana = _Names(), Analyzer()
    stmts: list[tir.Stmt] = []
    allocs: list[tir.Buffer] = []
    for op in _topo_ops(outputs):
        if isinstance(op, PlaceholderOp):
            if not any(id(t) in arg_ids for t in op.outputs):
                raise CreatePrimFuncError(f"create_prim_func: placeholder {op.name!r} is read but "
                                          "is not one of the arguments")
            continue
        stmts.append(_compute_stmt(op, names, ana) if isinstance(op, ComputeOp)
                     else _extern_stmt(cast(ExternOp, op), names))  # (the only other kind)
        allocs.extend(t.buffer for t in op.outputs if id(t) not in arg_ids)
    body = stmts[0] if len(stmts) == 1 else tir.SeqStmt(stmts)
    root = tir.Block([], [], [], "root", body, alloc_buffers=allocs)
    handles = {id(t): tir.Var(t.name, "handle") for t in args}
    buffer_map = {handles[id(t)]: t.buffer for t in args}
    params = [handles[id(t)] if isinstance(t, Tensor) else t for t in ops]
    extra = [v for v in _lifted_vars(params, buffer_map, body)
             if all(v is not p for p in params)]
    for v in extra:
        if v.dtype != "int64":
            raise CreatePrimFuncError(f"create_prim_func: symbolic variable {v.name_hint!r} must "
                                      f"be int64 to be passed as a parameter, got {v.dtype}")
    return tir.PrimFunc(params + extra, tir.BlockRealize([], tir.const(True, "bool"), root),
                        buffer_map=buffer_map,
                        attrs={"global_symbol": "main", "tir.noalias": True})
