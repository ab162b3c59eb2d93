"""``LowerCrossThreadReduction``: a reduction block whose reduction loops are bound to GPU
threads becomes an in-thread reduction, a ``tvm_thread_allreduce`` across the threads and a
write-back by thread 0 (mirrors ``tvm.tir.transform.LowerCrossThreadReduction``,
src/tir/transforms/lower_cross_thread_reduction.cc, for its common case).

TVM's GPU reduction recipe binds the inner reduction loop to ``threadIdx.x``::

    for i in T.thread_binding(256, thread="blockIdx.x"):
        for k_0 in range(8):
            for k_1 in T.thread_binding(128, thread="threadIdx.x"):
                with T.block("B"):
                    vi = T.axis.spatial(256, i)
                    vk = T.axis.reduce(1024, k_0 * 128 + k_1)
                    with T.init():
                        B[vi] = T.float32(0)
                    B[vi] = B[vi] + A[vi, vk]

becomes (the thread loops outermost, TVM's order; two ``local`` buffers of one element in the
root block, named as TVM names them)::

    for k_1 in T.thread_binding(128, thread="threadIdx.x"):
        with T.block("B_in_thread_init"):
            in_thread_B[0] = T.float32(0)
        for k_0 in range(8):
            with T.block("B_in_thread"):
                vi = T.axis.spatial(256, i)
                vk = T.axis.reduce(1024, k_0 * 128 + k_1)
                in_thread_B[0] = in_thread_B[0] + A[vi, vk]
        with T.block("B_cross_thread"):
            T.attr(T.comm_reducer(lambda x, y: x + y, [T.float32(0)]), "reduce_scope", ...)
            T.tvm_thread_allreduce(T.uint32(1), in_thread_B[0], T.bool(True),
                                   cross_thread_B[0], k_1)
        with T.block("B_write_back"):
            vi = T.axis.spatial(256, i)
            T.where(k_1 == 0)
            B[vi] = cross_thread_B[0]

which LowerThreadAllreduce then lowers to warp shuffles / shared memory. Handled: a perfect
nest of reduction loops (their vars used only by reduction axes) down to one block whose init
and body are single stores ``B[...] = B[...] op rhs`` (op one of ``+ * min max``; a
``T.where`` stays on the in-thread block), in a function with a root block. Anything else
with a reduction axis bound to a thread is refused by
:func:`tirkit.compiler.gpu_checks.check_cross_thread_reduction`, naming the block.
"""
from __future__ import annotations

from typing import Any, cast

from tirkit import tir
from tirkit.ir.expr import PrimExpr
from tirkit.tir import expr as E
from tirkit.tir import stmt as S
from tirkit.tir.analysis import match_reduction_update, undefined_vars
from tirkit.tir.block_access import get_block_read_write_region
from tirkit.tir.buffer import decl_buffer
from tirkit.tir.expr import IterVarType
from tirkit.tir.function import PrimFunc
from tirkit.tir.stmt_functor import StmtMutator, substitute

from ..gpu_checks import check_cross_thread_reduction
from ..transform import Pass, prim_func_pass, register_pass

__all__ = ["LowerCrossThreadReduction", "lower_cross_thread_reduction"]

def _reducer(block: S.Block) -> tuple[type, S.BufferStore, PrimExpr, PrimExpr] | None:
    """``(op class, update store, rhs, init value)`` of ``B[i] = B[i] op rhs`` whose init
    stores into the same buffer; None for any other block."""
    matched = match_reduction_update(block)
    if isinstance(matched, str) or cast(S.BufferStore, block.init).buffer is not \
            matched[1].buffer:
        return None
    return matched


def _chain(loop: S.For) -> tuple[list[S.For], S.BlockRealize] | None:
    """The perfect loop nest from ``loop`` down to a block, or None."""
    loops: list[S.For] = []
    node: S.Stmt = loop
    while isinstance(node, S.For):
        loops.append(node)
        node = node.body
    return (loops, node) if isinstance(node, S.BlockRealize) else None


def _thread_tag(loop: S.For) -> str | None:
    if loop.kind != S.ForKind.THREAD_BINDING or loop.thread_binding is None:
        return None
    tag = loop.thread_binding.thread_tag
    return tag if tag.startswith("threadIdx") else None


def _region(buf: Any) -> S.BufferRegion:
    return S.BufferRegion(buf, [tir.Range(0, 1)])


class _Lower(StmtMutator):
    def __init__(self) -> None:
        super().__init__()
        self.buffers: list[Any] = []

    def visit_for_(self, op: S.For) -> S.Stmt:
        found = _chain(op)
        if found is not None:
            new = self._rewrite(*found)
            if new is not None:
                return new
        return super().visit_for_(op)

    def _rewrite(self, loops: list[S.For], realize: S.BlockRealize) -> S.Stmt | None:
        block = realize.block
        matched = _reducer(block)
        if matched is None or block.alloc_buffers or block.match_buffers:
            return None
        reduce_vars: set = set()
        spatial_vars: set = set()
        for iv, value in zip(block.iter_vars, realize.iter_values):
            (reduce_vars if iv.iter_type == IterVarType.CommReduce else spatial_vars).update(
                undefined_vars(value))
        chain_vars = {lp.loop_var for lp in loops}
        threads = [lp for lp in loops if _thread_tag(lp) is not None]
        if not threads or chain_vars & spatial_vars or not chain_vars <= reduce_vars:
            return None
        cls, store, rhs, init_value = matched
        dtype, name = store.buffer.dtype, block.name_hint
        in_thread = decl_buffer((1,), dtype, f"in_thread_{store.buffer.name}", scope="local")
        red = decl_buffer((1,), dtype, f"cross_thread_{store.buffer.name}", scope="local")
        self.buffers += [in_thread, red]
        zero = [tir.const(0, "int32")]
        acc = E.BufferLoad(in_thread, zero)

        def realize_of(blk: S.Block, values: Any = (), predicate: Any = True) -> S.BlockRealize:
            reads, writes = get_block_read_write_region(blk)
            return S.BlockRealize(list(values), predicate,
                                  blk.with_changes(reads=reads, writes=writes))

        init = realize_of(S.Block([], [], [], f"{name}_in_thread_init",
                                  S.BufferStore(in_thread, init_value, zero)))
        update = S.BlockRealize(realize.iter_values, realize.predicate, S.Block(
            block.iter_vars, [], [], f"{name}_in_thread",
            S.BufferStore(in_thread, cls(acc, rhs), zero)))
        update = realize_of(update.block, update.iter_values, realize.predicate)  # (a split's
        # T.where keeps out-of-range iterations out of each thread's partial)
        nest: S.Stmt = update
        for lp in reversed([lp for lp in loops if _thread_tag(lp) is None]):
            nest = lp.with_changes(body=nest)
        x, y = tir.Var("x", dtype), tir.Var("y", dtype)
        reducer = E.CommReducer([x], [y], [cls(x, y)], [init_value])
        allreduce = S.Evaluate(E.Call("handle", "tir.tvm_thread_allreduce", [
            tir.const(1, "uint32"), acc, tir.const(True, "bool"), E.BufferLoad(red, zero),
            *[lp.loop_var for lp in threads]]))
        cross = S.BlockRealize([], True, S.Block(
            [], [_region(in_thread)], [_region(red)], f"{name}_cross_thread", S.AttrStmt(
                reducer, "reduce_scope", tir.reinterpret("handle", tir.const(0, "uint64")),
                allreduce)))
        spatial = [(iv, v) for iv, v in zip(block.iter_vars, realize.iter_values)
                   if iv.iter_type != IterVarType.CommReduce]
        fresh = {iv.var: tir.Var(iv.var.name, iv.var.dtype) for iv, _ in spatial}  # (each
        spatial = [(iv.with_changes(var=fresh[iv.var]), v) for iv, v in spatial]  # block its own)
        first = tir.equal(threads[0].loop_var, 0)
        for lp in threads[1:]:
            first = tir.logical_and(first, tir.equal(lp.loop_var, 0))
        write = realize_of(S.Block([iv for iv, _ in spatial], [], [], f"{name}_write_back",
                                   S.BufferStore(store.buffer, E.BufferLoad(red, zero),
                                                 [substitute(i, fresh) for i in store.indices])),
                           [v for _, v in spatial], first)
        body: S.Stmt = S.SeqStmt([init, nest, cross, write])
        for lp in reversed(threads):
            body = lp.with_changes(body=body)
        return body


def lower_cross_thread_reduction(func: PrimFunc) -> PrimFunc:
    """``func`` with its thread-bound reductions lowered (the same object when there is none).

    Raises:
        CodegenError: for a thread-bound reduction this pass cannot lower, naming the block.
    """
    body = func.body
    root = body if isinstance(body, S.BlockRealize) and not body.iter_values else None
    if root is not None:
        lower = _Lower()
        new_inner = lower(root.block.body)
        if lower.buffers:
            block = root.block.with_changes(
                body=new_inner, alloc_buffers=[*root.block.alloc_buffers, *lower.buffers])
            func = func.with_body(root.with_changes(block=block))
    check_cross_thread_reduction(func)
    return func


@register_pass("LowerCrossThreadReduction")
def LowerCrossThreadReduction() -> Pass:  # pylint: disable=invalid-name
    """Lower reductions bound to GPU threads to ``tvm_thread_allreduce``
    (``tvm.tir.transform.LowerCrossThreadReduction``, opt_level 0)."""
    @prim_func_pass("LowerCrossThreadReduction", 0)
    def run(func: PrimFunc, mod: Any, ctx: Any) -> PrimFunc:
        del mod, ctx
        return lower_cross_thread_reduction(func)
    return run
