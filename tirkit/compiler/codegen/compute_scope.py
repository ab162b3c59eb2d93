"""The compute scope of a packed function as a function of its own (mirrors
``CodeGenCPU::CreateComputeScope``).

MakePackedAPI wraps a function's body in ``T.attr(0, "compute_scope", "<name>_compute_")`` after
the argument checks. As TVM does, the body becomes an internal, ``noinline`` function
``i32 <name>_compute_(...)`` whose parameters are the variables the body uses from the wrapper
(data pointers ``noalias``, with their known alignment), called by the wrapper, which returns
its result when it is not 0 (a failed assertion's -1). So the kernel is optimised apart from
the argument checks, with the aliasing facts of its own parameters, and the wrapper stays
small straight-line code.

Not in TVM: a body that runs no loop of its own (every loop of it parallel, each outlined into
a closure by :mod:`.parallel`) is ``optnone`` like the wrapper: it only allocates workspaces and
starts the parallel loops, once per call, and its optimisation and ``-O3`` code generation cost
~20M instructions per build (softmax, under callgrind) for a few nanoseconds per call. The
closures, where the time goes, are optimised as before (the same machine code).
"""
from __future__ import annotations

from typing import cast

from llvmlite import ir

from ...ir.dtype import DataType
from ...ir.expr import PrimExpr
from ...tir import stmt as S
from ...tir.stmt_functor import pre_order_visit
from .core import CodeGenLLVM, FunctionState, register_attr
from .ir_text import FastBuilder
from .ir_values import fast_scope
from .parallel import captured_vars
from .types import I32

__all__ = ["emit_compute_scope", "runs_loops"]

_INT32 = DataType.parse("int32")


@register_attr("compute_scope")
def emit_compute_scope(cg: CodeGenLLVM, s: S.AttrStmt) -> None:
    """Outline ``s.body`` into ``<name>_compute_`` and call it (inline when the current function
    cannot report its result: a parallel closure, or a function that does not return int32)."""
    fs = cg.fs
    assert fs is not None
    if fs.error_flag is not None or fs.func.function_type.return_type != I32:
        cg.stmt(s.body)
        return
    captured = captured_vars(cg, cast(S.For, s.body))  # (the compute_scope's loop)
    values = [cg.vars[v] for v in captured]
    name = getattr(s.value, "value", None) or f"{fs.name}_compute_"
    fn = fast_scope(ir.Function(cg.module, ir.FunctionType(I32, [v.type for v in values]),
                                name=cg.fresh_name(str(name))))
    fn.linkage = "internal"
    fn.attributes.add("noinline")
    fn.attributes.add("nounwind")
    if not runs_loops(s.body):  # launches parallel loops only: not worth optimising
        fn.attributes.add("optnone")
    for arg, var in zip(fn.args, captured):
        arg.name = var.name_hint
        if var.dtype.is_handle():
            arg.add_attribute("noalias")
            align = cg.alignment.get(var, 0)
            if align > 1:
                arg.attributes.align = align
    entry = fn.append_basic_block("entry")
    state = FunctionState(fn.name, fn, FastBuilder(entry), entry, _INT32)
    caller = cg.builder
    with cg.function(state, dict(zip(captured, fn.args))):
        body = cg.new_block("body")
        cg.builder.branch(body)
        cg.builder.position_at_end(body)
        cg.stmt(s.body)
        if not cg.builder.block.is_terminated:
            cg.builder.ret(ir.Constant(I32, 0))
    # the wrapper is left with the argument checks: straight-line code that runs once per call,
    # not worth LLVM's optimisation (its time grows with the number of checks)
    fs.func.attributes.add("noinline")
    fs.func.attributes.add("optnone")
    result = caller.call(fn, values)
    with caller.if_then(caller.icmp_signed("!=", result, ir.Constant(I32, 0)), likely=False):
        caller.ret(result)


def runs_loops(body: S.Stmt) -> bool:
    """Whether ``body`` runs a loop (``For`` or ``While``) outside its parallel loops (those
    become closures of their own)."""
    found: list[S.Stmt] = []

    def visit(node: object) -> bool:
        if found or isinstance(node, PrimExpr):
            return False
        if isinstance(node, S.For):
            if node.kind != S.ForKind.PARALLEL:
                found.append(node)
            return False
        if isinstance(node, S.While):
            found.append(node)
            return False
        return True

    pre_order_visit(body, visit)
    return bool(found)
