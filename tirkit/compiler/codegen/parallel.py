"""Parallel loops on libgomp (the counterpart of ``CodeGenCPU::CreateParallelLaunch`` and
``VisitStmt_(For)`` with ``ForKind::kParallel``; TVM launches through its own thread pool with
``TVMBackendParallelLaunch``, tirkit through the system's OpenMP runtime, DESIGN.md §6).

A ``T.parallel`` loop becomes:

- a closure ``void <func>_compute_<k>(ptr env)``: each OpenMP thread reads its id and the team
  size (``omp_get_thread_num`` / ``omp_get_num_threads``), computes its contiguous chunk of the
  iteration space as TVM's ``ParallelFor`` does (``step = ceil(extent / nthreads)``) and runs the
  body serially over it;
- in the caller, an environment struct ``{i32 error, captured values...}`` on the stack holding
  every variable the loop body uses, a call ``GOMP_parallel(closure, &env, 0, 0)`` (0 threads =
  OpenMP's default team), and a check of the error flag: an assertion failing in any thread makes
  the caller return -1 with the thread's message in ``TVMAPISetLastError``.

Nested parallel loops run serially inside the outer one (TVM rejects them).
"""
from __future__ import annotations

from llvmlite import ir

from ...ir.expr import IntImm
from ...tir import expr as E
from ...tir import stmt as S
from ...tir.buffer import Buffer
from ...tir.stmt_functor import post_order_visit
from .core import CodeGenLLVM, FunctionState
from .ir_text import FastBuilder
from .ir_values import fast_scope
from .loops import serial_loop
from .types import I32, PTR, VOID, const, llvm_type

__all__ = ["emit_parallel_for", "captured_vars"]


def captured_vars(cg: CodeGenLLVM, loop: S.For) -> list[E.Var]:
    """Variables bound outside ``loop`` that it uses (buffer data pointers included), in the
    order of their first use in a post-order walk."""
    seen: dict[int, E.Var] = {}
    variables = cg.vars
    buffers: set[int] = set()  # the buffers noted: the IR keeps them alive during the walk

    def note(v: E.Var) -> None:
        if id(v) not in seen and v in variables:
            seen[id(v)] = v

    def note_buffer(buf: Buffer) -> None:
        if id(buf) in buffers:  # noted already: its vars are in seen (the loop body
            return  # accesses a buffer many times, an unrolled one dozens of times)
        buffers.add(id(buf))
        note(buf.data)
        offset = buf.elem_offset
        if isinstance(offset, E.Var):
            note(offset)
        elif not isinstance(offset, IntImm):  # a constant offset holds no var
            post_order_visit(offset, visit)

    def visit(node: object) -> None:
        kind = _KINDS.get(type(node))
        if kind is None:
            kind = _kind_of(type(node))
        if kind == _VAR:
            note(node)  # type: ignore[arg-type]
        elif kind == _ACCESS:
            note_buffer(node.buffer)  # type: ignore[attr-defined]
        elif kind == _ATTR and isinstance(node.node, E.Var):  # type: ignore[attr-defined]
            note(node.node)  # type: ignore[attr-defined]

    post_order_visit(loop, visit)
    return list(seen.values())


_OTHER, _VAR, _ACCESS, _ATTR = range(4)
#: node class -> what captured_vars does with its nodes (a class's answer never changes)
_KINDS: dict[type, int] = {}


def _kind_of(cls: type) -> int:
    kind = _VAR if issubclass(cls, E.Var) else \
        _ACCESS if issubclass(cls, (E.BufferLoad, S.BufferStore)) else \
        _ATTR if issubclass(cls, S.AttrStmt) else _OTHER
    _KINDS[cls] = kind
    return kind


def emit_parallel_for(cg: CodeGenLLVM, loop: S.For) -> None:
    """Outline ``loop`` into a closure and launch it with ``GOMP_parallel``."""
    fs = cg.fs
    assert fs is not None
    if fs.error_flag is not None:  # already inside a parallel region: run serially
        begin = cg.expr(loop.min)
        end = cg.builder.add(begin, cg.expr(loop.extent))
        serial_loop(cg, loop.loop_var, begin, end, lambda: cg.stmt(loop.body))
        return
    captured = captured_vars(cg, loop)
    values = [cg.vars[v] for v in captured]
    env_ty = ir.LiteralStructType([I32, *(v.type for v in values)])
    env = cg.alloca(env_ty, name="parallel_env")
    bld = cg.builder
    bld.store(ir.Constant(I32, 0), _field(bld, env_ty, env, 0))
    for i, value in enumerate(values, start=1):
        bld.store(value, _field(bld, env_ty, env, i))
    closure = _closure(cg, loop, captured, env_ty)
    gomp = cg.declare("GOMP_parallel", VOID, [PTR, PTR, I32, I32])
    bld.call(gomp, [closure, env, ir.Constant(I32, 0), ir.Constant(I32, 0)])
    failed = bld.load(_field(bld, env_ty, env, 0), typ=I32)
    with bld.if_then(bld.icmp_signed("!=", failed, ir.Constant(I32, 0)), likely=False):
        cg.return_error()


def _field(bld: ir.IRBuilder, env_ty: ir.Type, env: ir.Value, i: int) -> ir.Value:
    zero = ir.Constant(I32, 0)
    return bld.gep(env, [zero, ir.Constant(I32, i)], inbounds=True, source_etype=env_ty)


def _closure(cg: CodeGenLLVM, loop: S.For, captured: list[E.Var],
             env_ty: ir.Type) -> ir.Function:
    fs = cg.fs
    assert fs is not None
    fn = fast_scope(ir.Function(cg.module, ir.FunctionType(VOID, [PTR]),
                                name=cg.fresh_name(f"{fs.name}_compute_")))
    fn.linkage = "internal"
    fn.type = PTR  # passed by address; opaque pointer
    fn.args[0].add_attribute("noalias")
    entry = fn.append_basic_block("entry")
    bld = FastBuilder(entry)
    env = fn.args[0]
    flag = _field(bld, env_ty, env, 0)
    state = FunctionState(fn.name, fn, bld, entry, fs.ret_dtype, error_flag=flag)
    bindings = {}
    for i, var in enumerate(captured, start=1):
        bindings[var] = bld.load(_field(bld, env_ty, env, i), typ=env_ty.elements[i],
                                 name=var.name_hint)
    with cg.function(state, bindings):
        body_block = cg.new_block("body")
        bld.branch(body_block)
        bld.position_at_end(body_block)
        _chunked_loop(cg, loop)
        if not cg.builder.block.is_terminated:
            cg.builder.ret_void()
    return fn


def _chunked_loop(cg: CodeGenLLVM, loop: S.For) -> None:
    """This thread's chunk: ``[min + lo, min + hi)`` with ``lo = min(tid * step, extent)``."""
    bld, t = cg.builder, loop.loop_var.dtype
    ity = llvm_type(t)
    tid_fn = cg.declare("omp_get_thread_num", I32, [])
    num_fn = cg.declare("omp_get_num_threads", I32, [])
    tid, nth = bld.call(tid_fn, []), bld.call(num_fn, [])
    if ity != I32:
        tid, nth = bld.sext(tid, ity), bld.sext(nth, ity)
    begin, extent = cg.expr(loop.min), cg.expr(loop.extent)
    step = bld.sdiv(bld.sub(bld.add(extent, nth), const(t, 1)), nth)
    lo = _smin(bld, bld.mul(tid, step), extent)
    hi = _smin(bld, bld.add(lo, step), extent)
    serial_loop(cg, loop.loop_var, bld.add(begin, lo), bld.add(begin, hi),
                lambda: cg.stmt(loop.body))


def _smin(bld: ir.IRBuilder, a: ir.Value, b: ir.Value) -> ir.Value:
    return bld.select(bld.icmp_signed("<", a, b), a, b)
