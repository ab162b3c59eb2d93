"""Statements: control flow, bindings, attributes and assertions (mirrors the ``VisitStmt_``
methods of TVM's ``CodeGenLLVM`` and ``CodeGenCPU``).

Serial loops are ``for_begin``/``for_body``/``for_end`` blocks with a ``phi`` induction variable
(``CodeGenLLVM::CreateSerialFor``); parallel loops go to :mod:`.parallel`. ``AssertStmt`` calls
``TVMAPISetLastError("Assert fail: <cond>, <message>")`` and returns -1, as ``CodeGenCPU`` does;
a message with ``{index}``/``{VAR}`` placeholders (the bound checker's) is instead formatted with
the run-time values by libc's ``snprintf`` and passed on without the condition, so the user sees
the buffer, the index and the source position rather than CSE temporaries.
"""
from __future__ import annotations

import re
from typing import Any, Callable

from llvmlite import ir

from ...ir.expr import IntImm
from ...tir import expr as E
from ...tir import stmt as S
from .core import CodeGenLLVM, register
from .types import I64, PTR, CodegenError, const, llvm_type

__all__ = ["serial_loop", "condition_of"]


@register(S.SeqStmt)
def _seq(cg: CodeGenLLVM, s: S.SeqStmt) -> None:
    for item in s.seq:
        cg.stmt(item)


@register(S.Evaluate)
def _evaluate(cg: CodeGenLLVM, s: S.Evaluate) -> None:
    if not isinstance(s.value, (IntImm, E.FloatImm)):
        cg.expr(s.value)


@register(S.LetStmt)
def _let_stmt(cg: CodeGenLLVM, s: S.LetStmt) -> None:
    value = cg.expr(s.value)
    _let_exprs(cg)[s.var] = s.value  # what a bound check's message may need to re-evaluate
    with cg.bind(s.var, value):
        cg.stmt(s.body)


def _let_exprs(cg: CodeGenLLVM) -> dict[Any, Any]:
    table = getattr(cg, "_let_exprs", None)
    if table is None:
        table = {}
        setattr(cg, "_let_exprs", table)
    return table


@register(S.AttrStmt)
def _attr(cg: CodeGenLLVM, s: S.AttrStmt) -> None:
    if s.attr_key == "storage_alignment" and isinstance(s.node, E.Var) and s.node in cg.vars:
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


def _assert_message(s: S.AssertStmt) -> str:
    from ...printer import script  # pylint: disable=import-outside-toplevel

    try:
        cond = script(s.condition)
    except Exception:  # pylint: disable=broad-except  # a message is better than no message
        cond = type(s.condition).__name__
    msg = f"Assert fail: {cond}"
    if isinstance(s.message, E.StringImm):
        msg += f", {s.message.value}"
    return msg


_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _index_of(cg: CodeGenLLVM, cond: Any) -> Any:
    """``x`` of the bound checker's ``0 <= x and x < n`` condition, else None; looks through
    the variables and ``Let`` expressions common-subexpression elimination put in between."""
    lets, local = _let_exprs(cg), {}
    for _ in range(8):
        if isinstance(cond, E.Var) and cond in lets:
            cond = lets[cond]
        elif isinstance(cond, E.Let):
            local[cond.var] = cond.value
            cond = cond.body
        else:
            break
    if isinstance(cond, E.And) and isinstance(cond.a, E.GE) and isinstance(cond.b, E.LT):
        x = cond.a.a
        while isinstance(x, E.Var) and x in local:
            x = local[x]
        return x
    return None


def _placeholder_value(cg: CodeGenLLVM, name: str, s: S.AssertStmt) -> ir.Value | None:
    """The run-time value (as i64) of a message placeholder, or None when it has none here."""
    if name == "index":
        expr = _index_of(cg, s.condition)
        try:
            value = cg.expr(expr) if expr is not None else None
        except (CodegenError, KeyError):  # not evaluable here: the message says "{index}"
            value = None
    else:
        value = next((v for var, v in reversed(list(cg.vars.items())) if var.name == name
                      and isinstance(v.type, ir.IntType)), None)
    if value is None or not isinstance(value.type, ir.IntType):
        return None
    if value.type.width < 64:
        value = cg.builder.sext(value, I64)
    return value if value.type.width == 64 else None


def _formatted_message(cg: CodeGenLLVM, s: S.AssertStmt) -> ir.Value | None:
    """The assertion's message with its placeholders filled at run time (``snprintf`` into a
    stack buffer), or None when it has no placeholder."""
    text = s.message.value if isinstance(s.message, E.StringImm) else ""
    if not text.startswith("OUT OF THE BOUNDS") or not _PLACEHOLDER.search(text):
        return None
    values: list[ir.Value] = []
    pieces = []
    for part in re.split(r"(\{\w+\})", text):
        m = _PLACEHOLDER.fullmatch(part)
        value = _placeholder_value(cg, m.group(1), s) if m else None
        if value is not None:
            values.append(value)
        pieces.append("%lld" if value is not None else (part if m else part.replace("%", "%%")))
    size = 1024
    buf = cg.builder.alloca(ir.ArrayType(ir.IntType(8), size))
    snprintf = cg.declare("snprintf", ir.IntType(32), [PTR, I64, PTR], var_arg=True)
    cg.builder.call(snprintf, [buf, ir.Constant(I64, size), cg.string_constant("".join(pieces)),
                               *values])
    return buf


@register(S.AssertStmt)
def _assert(cg: CodeGenLLVM, s: S.AssertStmt) -> None:
    cond = cg.expr(s.condition)
    with cg.builder.if_then(cg.builder.not_(cond), likely=False):
        cg.set_error(_formatted_message(cg, s) or _assert_message(s))
        cg.return_error()
    cg.stmt(s.body)


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
    cg.fs.loop_exits.append((head, end))
    try:
        cg.stmt(s.body)
    finally:
        cg.fs.loop_exits.pop()
    if not cg.builder.block.is_terminated:
        cg.builder.branch(head)
    cg.builder.position_at_end(end)


@register(S.Break)
def _break(cg: CodeGenLLVM, _s: S.Break) -> None:
    if not cg.fs.loop_exits:
        raise CodegenError("break outside a loop")
    cg.builder.branch(cg.fs.loop_exits[-1][1])


@register(S.Continue)
def _continue(cg: CodeGenLLVM, _s: S.Continue) -> None:
    if not cg.fs.loop_exits:
        raise CodegenError("continue outside a loop")
    cg.builder.branch(cg.fs.loop_exits[-1][0])


def serial_loop(cg: CodeGenLLVM, var: E.Var, begin: ir.Value, end: ir.Value,
                body: Callable[[], Any]) -> None:
    """``for (var = begin; var < end; ++var) body()`` with a phi induction variable."""
    bld = cg.builder
    pre = bld.block
    head, block, latch, exit_ = (cg.new_block(n) for n in ("for_begin", "for_body",
                                                             "for_latch", "for_end"))
    bld.branch(head)
    bld.position_at_end(head)
    phi = bld.phi(begin.type, name=var.name_hint)
    phi.add_incoming(begin, pre)
    cmp = bld.icmp_signed if var.dtype.is_int() else bld.icmp_unsigned
    bld.cbranch(cmp("<", phi, end), block, exit_)
    bld.position_at_end(block)
    cg.fs.loop_exits.append((latch, exit_))
    try:
        with cg.bind(var, phi):
            body()
    finally:
        cg.fs.loop_exits.pop()
    if not cg.builder.block.is_terminated:
        bld.branch(latch)
    bld.position_at_end(latch)
    nxt = bld.add(phi, const(var.dtype, 1))
    if var.dtype.is_int():
        nxt.flags.append("nsw")
    phi.add_incoming(nxt, latch)
    bld.branch(head)
    bld.position_at_end(exit_)


@register(S.For)
def _for(cg: CodeGenLLVM, s: S.For) -> None:
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
    serial_loop(cg, s.loop_var, begin, end, lambda: cg.stmt(s.body))


@register(S.Prefetch)
def _prefetch(_cg: CodeGenLLVM, _s: S.Prefetch) -> None:
    """A prefetch hint has no effect on results; dropped (TVM emits llvm.prefetch)."""
