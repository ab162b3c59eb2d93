"""``AssertStmt``: on failure, ``TVMAPISetLastError(message)`` and return -1 (mirrors
``CodeGenCPU::VisitStmt_(const AssertStmtNode*)``), with a message in source terms.

TVM's message is ``"Assert fail: <condition>, <message>"``. Here:

- the condition is printed with the common-subexpression temporaries (``cse_var_N``) replaced by
  what they stand for, and followed by the run-time values of its variables
  (``i * n < 50 with i = 17, n = 3``), then ``at FILE:LINE:COL`` of the statement (the runtime
  adds that source line, :func:`tirkit.compiler.runtime.packed.with_source_line`);
- the bound checker's messages (``OUT OF THE BOUNDS: A[{index}] ... with i = {i} ...``) get their
  ``{index}`` and ``{VAR}`` placeholders filled with the run-time values instead.

Values are formatted by libc's ``snprintf`` into a stack buffer on the failure path only. Every
assertion of a function leaves through one shared exit block (a ``phi`` of the messages, one
``TVMAPISetLastError`` call, the error return) instead of a call and a return each: a packed
function's ~25 argument checks then compile to compares and branches (code generation of the
checks took ~1.5 ms more per kernel with a call and a return per check).
"""
from __future__ import annotations

import re
from typing import Any

from llvmlite import ir

from ...tir import expr as E
from ...tir import stmt as S
from ...tir.analysis import undefined_vars
from ...tir.stmt_functor import substitute
from .assert_text import condition_text, condition_text_and_vars
from .core import CodeGenLLVM, register
from .ir_text import block_label
from .types import I8, I32, I64, PTR, CodegenError, ir_const

_PLACEHOLDER = re.compile(r"\{(\w+)\}")
Piece = str | ir.Value
_MESSAGE_BUFFER = ir.ArrayType(I8, 1024)  # snprintf's buffer for a message with values
_SNPRINTF_ARGS = [PTR, I64, PTR]


def let_exprs(cg: CodeGenLLVM) -> dict[Any, Any]:
    """``{Var: value expression}`` of the LetStmts met so far (kept for assertion messages)."""
    table = getattr(cg, "_let_exprs", None)
    if table is None:
        table = {}
        setattr(cg, "_let_exprs", table)
    return table


def note_let(cg: CodeGenLLVM, var: Any, value: Any) -> None:
    """Record the LetStmt ``var = value`` in :func:`let_exprs` (and whether any common-
    subexpression temporary is among them, which :func:`_inline_temporaries` asks per assert)."""
    let_exprs(cg)[var] = value
    if var.name.startswith("cse_var"):
        setattr(cg, "_cse_lets", True)


def _inline_temporaries(cg: CodeGenLLVM, expr: Any) -> Any:
    """``expr`` with let-bound ``cse_var_N`` variables (LetStmts and ``T.Let``) replaced by their
    values, so the condition reads as the user wrote it."""

    lets = let_exprs(cg)
    if not isinstance(expr, E.Let) and not getattr(cg, "_cse_lets", False):
        return expr  # nothing to inline (the packed API's checks): spare the walks below
    for _ in range(16):
        while isinstance(expr, E.Let):
            expr = substitute(expr.body, {expr.var: expr.value})
        temps = {v: lets[v] for v in undefined_vars(expr)
                 if v.name.startswith("cse_var") and v in lets}
        if not temps:
            break
        expr = substitute(expr, temps)
    return expr


def _as_i64(cg: CodeGenLLVM, value: ir.Value | None) -> ir.Value | None:
    if value is None or not isinstance(value.type, ir.IntType) or value.type.width > 64:
        return None
    if value.type.width == 1:
        return cg.builder.zext(value, I64)
    return cg.builder.sext(value, I64) if value.type.width < 64 else value


def _is_int(value: ir.Value | None) -> bool:
    """Whether :func:`_as_i64` gives a value for ``value`` (asked before emitting anything)."""
    return value is not None and isinstance(value.type, ir.IntType) and value.type.width <= 64


def _index_of(cg: CodeGenLLVM, cond: Any) -> Any:
    """``x`` of the bound checker's ``0 <= x and x < n`` condition, else None; looks through
    the variables and ``Let`` expressions common-subexpression elimination put in between."""
    lets, local = let_exprs(cg), {}
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
    """The run-time value (as i64) of a bound-check placeholder, or None when it has none."""
    if name == "index":
        expr = _index_of(cg, s.condition)
        try:
            value = cg.expr(expr) if expr is not None else None
        except (CodegenError, KeyError):  # not evaluable here: the message says "{index}"
            value = None
    else:
        value = next((v for var, v in reversed(list(cg.vars.items())) if var.name == name
                      and isinstance(v.type, ir.IntType)), None)
    return _as_i64(cg, value)


def _bound_check_pieces(cg: CodeGenLLVM, s: S.AssertStmt, text: str) -> list[Piece]:
    pieces: list[Piece] = []
    for part in re.split(r"(\{\w+\})", text):
        m = _PLACEHOLDER.fullmatch(part)
        value = _placeholder_value(cg, m.group(1), s) if m else None
        pieces.append(value if value is not None else part)
    return pieces


def _assert_pieces(cg: CodeGenLLVM, s: S.AssertStmt) -> list[Piece]:
    """``Assert fail: <condition> with v = <value>..., <message> at FILE:LINE:COL``."""

    lets = let_exprs(cg) if getattr(cg, "_cse_lets", False) else None
    fast = condition_text_and_vars(s.condition, lets)  # one walk for the usual shapes
    if fast is not None:
        text, free = fast
    else:
        cond = _inline_temporaries(cg, s.condition)
        try:
            text = condition_text(cond)
        except Exception:  # pylint: disable=broad-except  # a message is better than none
            text = type(s.condition).__name__
        free = undefined_vars(cond)
    pieces: list[Piece] = [f"Assert fail: {text}"]
    named = [(v.name, cg.vars.get(v)) for v in free]
    named = [(n, v) for n, v in named if _is_int(v)]  # as i64 in _emit_message
    for i, (name, value) in enumerate(sorted(named, key=lambda p: p[0])):
        pieces += [(" with " if i == 0 else ", ") + f"{name} = ", value]
    if isinstance(s.message, E.StringImm):
        pieces.append(f", {s.message.value}")
    span = s.span
    if span is not None and span.source_name and not span.source_name.startswith("<"):
        pieces.append(f" at {span.source_name}:{span.line}:{span.column + 1}")
    return pieces


def _emit_message(cg: CodeGenLLVM, pieces: list[Piece]) -> ir.Value:
    """The message as a string constant, or formatted at run time when it holds values."""
    if all(isinstance(p, str) for p in pieces):
        return cg.string_constant("".join(pieces))  # type: ignore[arg-type]
    fmt = "".join("%lld" if not isinstance(p, str) else p.replace("%", "%%") for p in pieces)
    values = [_as_i64(cg, p) for p in pieces if not isinstance(p, str)]
    size = _MESSAGE_BUFFER.count
    buf = cg.builder.alloca(_MESSAGE_BUFFER)
    snprintf = cg.declare("snprintf", I32, _SNPRINTF_ARGS, var_arg=True)
    cg.builder.call(snprintf, [buf, ir_const(I64, size), cg.string_constant(fmt), *values])
    return buf


def failure_exit(cg: CodeGenLLVM) -> Any:
    """The ``phi`` of the current function's failure exit, made on first use: a block that
    calls ``TVMAPISetLastError(phi)`` and returns the error (:meth:`CodeGenLLVM.return_error`).
    A failing assertion branches there, adding its message as the phi's incoming value."""
    fs = cg.fs
    assert fs is not None
    phi = fs.assert_exit
    if phi is None:
        here = cg.builder.block
        cg.builder.position_at_end(cg.new_block("assert_fail"))
        phi = fs.assert_exit = cg.builder.phi(PTR, "assert_msg")
        cg.set_error(phi)
        cg.return_error()
        cg.builder.position_at_end(here)
    return phi


def _branch_unless(cg: CodeGenLLVM, cond: ir.Value, fail: ir.Block) -> None:
    """``br cond, <label>.endif, fail`` (weights 99:1), continuing in ``.endif``."""
    bld = cg.builder
    cont = cg.new_block(block_label(bld.block) + ".endif")
    bld.cbranch(cond, cont, fail).set_weights([99, 1])
    bld.position_at_end(cont)


@register(S.AssertStmt)
def _assert(cg: CodeGenLLVM, s: S.AssertStmt) -> None:
    cond = cg.expr(s.condition)
    phi = failure_exit(cg)
    text = s.message.value if isinstance(s.message, E.StringImm) else ""
    bound = text.startswith("OUT OF THE BOUNDS")
    pieces = None if bound and _PLACEHOLDER.search(text) else \
        [text] if bound else _assert_pieces(cg, s)
    if pieces is not None and all(isinstance(p, str) for p in pieces):
        phi.add_incoming(cg.string_constant("".join(pieces)), cg.builder.block)
        _branch_unless(cg, cond, phi.parent)
    else:  # values to format: on a block of its own, the failure path only
        fail = cg.new_block(block_label(cg.builder.block) + ".if")
        _branch_unless(cg, cond, fail)
        cont = cg.builder.block
        cg.builder.position_at_end(fail)
        if pieces is None:
            pieces = _bound_check_pieces(cg, s, text)
        phi.add_incoming(_emit_message(cg, pieces), cg.builder.block)
        cg.builder.branch(phi.parent)
        cg.builder.position_at_end(cont)
    cg.stmt(s.body)
