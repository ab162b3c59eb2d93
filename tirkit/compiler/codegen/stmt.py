"""Statements: control flow, bindings, attributes and assertions (mirrors the ``VisitStmt_``
methods of TVM's ``CodeGenLLVM`` and ``CodeGenCPU``).

Serial loops are ``for_begin``/``for_body``/``for_end`` blocks with a ``phi`` induction variable
(``CodeGenLLVM::CreateSerialFor``, :mod:`.loops`); parallel loops go to :mod:`.parallel`.
``AssertStmt`` calls ``TVMAPISetLastError`` and returns -1, as ``CodeGenCPU`` does (its message:
:mod:`.asserts`).
"""
from __future__ import annotations

from llvmlite import ir

from ...ir.expr import IntImm
from ...tir import expr as E
from ...tir import stmt as S
from .asserts import note_let
from .core import ATTR_RULES, CodeGenLLVM, register, register_attr
from .loops import loop_hints, serial_loop
from .types import I64, CodegenError, llvm_type

__all__ = ["serial_loop", "condition_of"]


@register(S.SeqStmt)
def _seq(cg: CodeGenLLVM, s: S.SeqStmt) -> None:
    for item in s.seq:
        cg.stmt(item)


@register(S.Evaluate)
def _evaluate(cg: CodeGenLLVM, s: S.Evaluate) -> None:
    if not isinstance(s.value, (IntImm, E.FloatImm)):
        cg.expr(s.value)


#: ``cg.alignment`` of a DLTensor's data pointer: the caller's arrays are used in place, so
#: only element alignment is known (NumPy guarantees no more), whatever the buffer declares
EXTERNAL_DATA = -1


def _is_dltensor_data(value: E.PrimExpr) -> bool:
    """``T.tvm_struct_get(arg, 0, 1, "handle")``: the data pointer of a DLTensor argument."""
    return isinstance(value, E.Call) and getattr(value.op, "name", "") == \
        "tir.tvm_struct_get" and isinstance(value.args[2], IntImm) and \
        value.args[2].value == 1


def _is_workspace_alloc(value: E.PrimExpr) -> bool:
    """``T.TVMBackendAllocWorkspace(...)``: fresh memory that no other pointer reaches."""
    return isinstance(value, E.Call) and getattr(value.op, "name", "") == \
        "tir.TVMBackendAllocWorkspace"


@register(S.LetStmt)
def _let_stmt(cg: CodeGenLLVM, s: S.LetStmt) -> None:
    value = cg.expr(s.value)
    note_let(cg, s.var, s.value)  # what an assertion's message may need to re-evaluate
    if _is_dltensor_data(s.value):
        cg.alignment[s.var] = EXTERNAL_DATA
        cg.tbaa.setdefault(s.var, None)
    elif _is_workspace_alloc(s.value):
        cg.tbaa.setdefault(s.var, None)
    with cg.bind(s.var, value):
        cg.stmt(s.body)


@register(S.AttrStmt)
def _attr(cg: CodeGenLLVM, s: S.AttrStmt) -> None:
    rule = ATTR_RULES.get(s.attr_key)
    if rule is None:
        cg.stmt(s.body)
    else:
        rule(cg, s)


@register_attr("storage_alignment")
def _storage_alignment(cg: CodeGenLLVM, s: S.AttrStmt) -> None:
    if isinstance(s.node, E.Var) and s.node in cg.vars \
            and cg.alignment.get(s.node) != EXTERNAL_DATA:
        align = int(s.value.value) if isinstance(s.value, IntImm) else 0
        if align > 1:
            cg.alignment[s.node] = align
            _assume_aligned(cg, cg.vars[s.node], align)
    cg.stmt(s.body)


def _assume_aligned(cg: CodeGenLLVM, ptr: ir.Value, align: int) -> None:
    """``llvm.assume((ptrtoint p & (align - 1)) == 0)`` (``CreateAlignmentAssumption``)."""
    bld = cg.builder
    low = bld.and_(bld.ptrtoint(ptr, I64), ir.Constant(I64, align - 1))
    fn = cg.declare("llvm.assume", ir.VoidType(), [ir.IntType(1)])
    bld.call(fn, [bld.icmp_unsigned("==", low, ir.Constant(I64, 0))])


def condition_of(cg: CodeGenLLVM, cond: E.PrimExpr) -> tuple[ir.Value, bool | None]:
    """The branch condition and whether it is marked ``T.likely``."""
    if isinstance(cond, E.Call) and getattr(cond.op, "name", "") == "tir.likely":
        return _truth(cg, cond.args[0]), True
    return _truth(cg, cond), None


def _truth(cg: CodeGenLLVM, cond: E.PrimExpr) -> ir.Value:
    """An ``i1`` for a condition; an integer one (TVM accepts ``if i:``) is ``i != 0``."""
    value = cg.expr(cond)
    if cond.dtype.is_bool():
        return value
    return cg.builder.icmp_signed("!=", value, ir.Constant(value.type, 0))


@register(S.IfThenElse)
def _if(cg: CodeGenLLVM, s: S.IfThenElse) -> None:
    cond, likely = condition_of(cg, s.condition)
    if s.else_case is None:
        with cg.builder.if_then(cond, likely=likely):
            cg.stmt(s.then_case)
        return
    with cg.builder.if_else(cond, likely=likely) as (then, otherwise):
        with then:
            cg.stmt(s.then_case)
        with otherwise:
            cg.stmt(s.else_case)


@register(S.While)
def _while(cg: CodeGenLLVM, s: S.While) -> None:
    head, body, end = cg.new_block("while_cond"), cg.new_block("while_body"), \
        cg.new_block("while_end")
    cg.builder.branch(head)
    cg.builder.position_at_end(head)
    cg.builder.cbranch(cg.expr(s.condition), body, end)
    cg.builder.position_at_end(body)
    fs = cg.fs
    assert fs is not None  # (inside a function)
    fs.loop_exits.append((head, end))
    try:
        cg.stmt(s.body)
    finally:
        fs.loop_exits.pop()
    if not cg.builder.block.is_terminated:
        cg.builder.branch(head)
    cg.builder.position_at_end(end)


@register(S.Break)
def _break(cg: CodeGenLLVM, _s: S.Break) -> None:
    if cg.fs is None or not cg.fs.loop_exits:
        raise CodegenError("break outside a loop")
    cg.builder.branch(cg.fs.loop_exits[-1][1])


@register(S.Continue)
def _continue(cg: CodeGenLLVM, _s: S.Continue) -> None:
    if cg.fs is None or not cg.fs.loop_exits:
        raise CodegenError("continue outside a loop")
    cg.builder.branch(cg.fs.loop_exits[-1][0])


@register(S.For)
def _for(cg: CodeGenLLVM, s: S.For) -> None:
    if not s.has_trivial_step():  # (TVM 0.27's CodeGenCPU ICHECKs it for parallel loops)
        raise CodegenError(f"loop {s.loop_var.name_hint!r} steps by {s.step}: the code generator "
                           "takes loops of step 1 (CanonicalizeLoop, the first stage of "
                           "lowering, rewrites it)")
    if s.kind == S.ForKind.THREAD_BINDING:
        raise CodegenError(f"loop {s.loop_var.name_hint!r} is bound to a GPU thread: the LLVM "
                           "CPU code generator cannot run it")
    if s.kind == S.ForKind.PARALLEL:
        from .parallel import emit_parallel_for  # pylint: disable=import-outside-toplevel

        emit_parallel_for(cg, s)
        return
    begin = cg.expr(s.min)
    end = cg.expr(s.extent)
    if not (isinstance(s.min, IntImm) and s.min.value == 0):
        end = cg.builder.add(begin, end)
    if llvm_type(s.loop_var.dtype) != begin.type:
        raise CodegenError(f"loop {s.loop_var.name_hint!r}: min has dtype {s.min.dtype}, "
                           f"the loop var {s.loop_var.dtype}")
    serial_loop(cg, s.loop_var, begin, end, lambda: cg.stmt(s.body), loop_hints(s.annotations))


@register(S.Prefetch)
def _prefetch(_cg: CodeGenLLVM, _s: S.Prefetch) -> None:
    """A prefetch hint has no effect on results; dropped (TVM emits llvm.prefetch)."""
