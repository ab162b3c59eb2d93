"""``T.compute`` in printed TVMScript (``PrinterConfig(compute_sugar=True)``; tirkit's own option,
TVM never prints it): a statement of the function's root body that is exactly the loop nest and
block ``T.compute`` (and ``te.create_prim_func``) expand to prints back as the sugar of seed
001's F3::

    k = T.reduce_axis((0, 64), name="k")
    C = T.compute((32, 16), lambda i, j: T.sum(A[i, k] * B[k, j], axis=k), name="C")

A nest qualifies when re-parsing the sugar gives the same IR: serial loops from 0 binding a
block's spatial then reduction iter vars one to one (``v_<loop>``), no predicate, annotations,
allocations or match_buffers; one store to the spatial iter vars of a plain buffer allocated in
the root block whose shape is the spatial extents; for a reduction, ``T.sum`` (update
``B[v] + x``, init 0); ``T.reads/T.writes`` as inferred. Sugared
buffers must close the root's allocation list in statement order, and no earlier statement may
touch them, so that allocating at the ``T.compute`` line rebuilds the same list. Anything else
prints expanded.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from tirkit.ir.expr import IntImm
from tirkit.ir.structural import structural_equal
from tirkit.tir import expr as E
from tirkit.tir import stmt as S
from tirkit.tir.block_access import get_block_read_write_region
from tirkit.tir.buffer import DEFAULT_ALIGNMENT, Buffer, BufferType
from tirkit.tir.expr import IterVarType
from tirkit.tir.op import const
from tirkit.tir.stmt_functor import post_order_visit, substitute

from .buffer import define_buffer
from .context import Frame, Printer
from .doc import concat, join
from .expr import call, str_lit
from .stmt_doc import LineDoc

__all__ = ["ComputeForm", "match_compute", "plan_compute_sugar", "print_compute"]

# update node type -> (reducer name, identity of the buffer's dtype); only T.sum takes an
# ``axis`` inside a prim_func (T.max/T.min are the binary operators there)
_REDUCERS = {E.Add: ("sum", lambda dt: const(0, dt))}


@dataclass(frozen=True)
class ComputeForm:
    """A statement printable as ``T.compute``: the output ``buffer``, the block ``name``, the
    spatial ``loops`` (lambda parameters), the reduction ``reduce_loops``, the ``reducer``
    (``"sum"`` or None) and the ``body`` over the loop vars."""

    buffer: Buffer
    name: str
    loops: tuple[S.For, ...]
    reduce_loops: tuple[S.For, ...]
    reducer: str | None
    body: Any


def _is_zero(e: Any) -> bool:
    return isinstance(e, IntImm) and e.value == 0


def _plain_loops(stmt: Any) -> tuple[list[S.For], Any]:
    loops = []
    while isinstance(stmt, S.For) and stmt.kind == S.ForKind.SERIAL and _is_zero(stmt.min) \
            and not stmt.annotations and stmt.thread_binding is None and stmt.step is None:
        loops.append(stmt)
        stmt = stmt.body
    return loops, stmt


def _plain_buffer(buf: Buffer, loops: list[S.For]) -> bool:
    return (not buf.strides and _is_zero(buf.elem_offset) and buf.scope() == "global"
            and buf.data_alignment == DEFAULT_ALIGNMENT and buf.offset_factor == 1
            and buf.buffer_type == BufferType.DEFAULT and not buf.axis_separators
            and len(buf.shape) == len(loops)
            and all(structural_equal(d, lp.extent) for d, lp in zip(buf.shape, loops)))


def _block_of(loops: list[S.For], inner: Any) -> S.Block | None:
    if not loops or not isinstance(inner, S.BlockRealize):
        return None
    block = inner.block
    pred = inner.predicate
    if not (isinstance(pred, IntImm) and pred.value == 1) or block.alloc_buffers or \
            block.match_buffers or block.annotations or len(block.iter_vars) != len(loops):
        return None
    for value, loop, iv in zip(inner.iter_values, loops, block.iter_vars):
        dom: Any = iv.dom  # (a block iter var's domain)
        if value is not loop.loop_var or iv.var.name_hint != "v_" + loop.loop_var.name_hint \
                or not _is_zero(dom.min) or not structural_equal(dom.extent, loop.extent):
            return None
    return block


def _store_value(block: S.Block, n_spatial: int) -> tuple[Any, str | None] | None:
    """The computed value and the reducer of a compute block, or None."""
    store = block.body
    spatial = [iv.var for iv in block.iter_vars[:n_spatial]]
    if not isinstance(store, S.BufferStore) or len(store.indices) != n_spatial or \
            any(i is not v for i, v in zip(store.indices, spatial)):
        return None
    if n_spatial == len(block.iter_vars):
        return (store.value, None) if block.init is None else None
    update: Any = store.value  # (a binary op where kind is found)
    kind = _REDUCERS.get(type(update))
    init = block.init
    if kind is None or not isinstance(init, S.BufferStore) or init.buffer is not store.buffer \
            or any(i is not v for i, v in zip(init.indices, spatial)):
        return None
    lhs = update.a
    if not (isinstance(lhs, E.BufferLoad) and lhs.buffer is store.buffer
            and all(i is v for i, v in zip(lhs.indices, spatial))) or \
            not structural_equal(init.value, kind[1](store.buffer.dtype)):
        return None
    return update.b, kind[0]


def match_compute(stmt: Any) -> ComputeForm | None:
    """The ``T.compute`` form of ``stmt`` (see the module doc), or None."""
    loops, inner = _plain_loops(stmt)
    block = _block_of(loops, inner)
    if block is None:
        return None
    kinds = [iv.iter_type for iv in block.iter_vars]
    n_spatial = kinds.count(IterVarType.DataPar)
    if n_spatial == 0 or kinds != [IterVarType.DataPar] * n_spatial + \
            [IterVarType.CommReduce] * (len(kinds) - n_spatial):
        return None
    found = _store_value(block, n_spatial)
    if found is None:
        return None
    value, reducer = found
    buf = cast(S.BufferStore, block.body).buffer  # (what _store_value matched)
    if not _plain_buffer(buf, loops[:n_spatial]) or buf.dtype != value.dtype or \
            _touches(value, buf):
        return None
    reads, writes = get_block_read_write_region(block.with_changes(reads=[], writes=[]))
    if not (structural_equal(list(block.reads), reads) and
            structural_equal(list(block.writes), writes)):
        return None
    remap = {iv.var: lp.loop_var for iv, lp in zip(block.iter_vars, loops)}
    return ComputeForm(buf, block.name_hint, tuple(loops[:n_spatial]),
                       tuple(loops[n_spatial:]), reducer, substitute(value, remap))


def _touches(node: Any, buf: Buffer) -> bool:
    found: list[Any] = []
    post_order_visit(node, lambda n: found.append(n) if getattr(n, "buffer", None) is buf
                     else None)
    return bool(found)


def plan_compute_sugar(root: S.Block) -> dict[int, ComputeForm]:
    """``{id(stmt): form}`` for the root body's statements that print as ``T.compute``; the
    root's allocation list loses exactly their buffers (see the module doc)."""
    items = list(root.body.seq) if isinstance(root.body, S.SeqStmt) else [root.body]
    allocs = list(root.alloc_buffers)
    matched = [(k, match_compute(s)) for k, s in enumerate(items)]
    forms = [(k, f) for k, f in matched if f is not None and any(b is f.buffer for b in allocs)
             and not any(_touches(items[j], f.buffer) for j in range(k))]
    # the longest run of matched statements whose buffers end the allocation list, in order
    while forms:
        tail = allocs[len(allocs) - len(forms):]
        if len(tail) == len(forms) and all(b is f.buffer for b, (_, f) in zip(tail, forms)):
            return {id(items[k]): f for k, f in forms}
        forms = forms[1:]
    return {}


def print_compute(p: Printer, form: ComputeForm, f: Frame) -> None:
    """``k = T.reduce_axis(...)`` lines and ``B = T.compute(shape, lambda ...: ..., name=...)``
    into ``f``."""
    axes = []
    for lp in form.reduce_loops:
        doc = p.define(lp.loop_var, f, lp.loop_var.name_hint)
        dom = concat("(", p.expr(lp.min).doc, ", ", p.expr(lp.extent).doc, ")")
        rhs = call(p, p.T("reduce_axis"), [dom], [("name", str_lit(p.names[id(lp.loop_var)]))])
        f.stmts.append(LineDoc(concat(doc, " = ", rhs.doc)))
        axes.append(doc)
    dims = [p.expr(lp.extent).doc for lp in form.loops]
    shape = concat("(", join(", ", dims), ",)" if len(dims) == 1 else ")")
    with p.frame(form.loops[0]) as g:
        params = [p.define(lp.loop_var, g, lp.loop_var.name_hint) for lp in form.loops]
        body = p.expr(form.body).doc
        if form.reducer is not None:
            axis = axes[0] if len(axes) == 1 else concat("[", join(", ", axes), "]")
            body = call(p, p.T(form.reducer), [body], [("axis", axis)]).doc
        fn = concat("lambda ", join(", ", params), ": ", body)
    lhs = define_buffer(p, form.buffer, f)
    rhs = call(p, p.T("compute"), [shape, fn], [("name", str_lit(form.name))])
    f.stmts.append(LineDoc(concat(lhs, " = ", rhs.doc)))
