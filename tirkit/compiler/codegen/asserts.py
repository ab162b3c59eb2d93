"""``AssertStmt``: on failure, ``TVMAPISetLastError(message)`` and return -1 (mirrors
``CodeGenCPU::VisitStmt_(const AssertStmtNode*)``), with a message in source terms.

TVM's message is ``"Assert fail: <condition>, <message>"``. Here:

- the condition is printed with the common-subexpression temporaries (``cse_var_N``) replaced by
  what they stand for, and followed by the run-time values of its variables
  (``i * n < 50 with i = 17, n = 3``), then ``at FILE:LINE:COL`` of the statement (the runtime
  adds that source line, :func:`tirkit.compiler.runtime.packed.with_source_line`);
- the bound checker's messages (``OUT OF THE BOUNDS: A[{index}] ... with i = {i} ...``) get their
  ``{index}`` and ``{VAR}`` placeholders filled with the run-time values instead.

Values are formatted by libc's ``snprintf`` on the failure path only, into one stack buffer of
the function (allocated in its entry block). Every assertion of a function leaves through one
shared exit block (a ``phi`` of the messages, one ``TVMAPISetLastError`` call, the error return)
instead of a call and a return each: a packed function's ~25 argument checks then compile to
compares and branches (code generation of the checks took ~1.5 ms more per kernel with a call
and a return per check).

The phi carries the message's byte offset in one string constant per function holding all its
messages (-1: the formatted message in the buffer), not a pointer to a string constant each.
The JIT's code model is the large one, where LLVM's fast instruction selector (which selects
the optnone packed wrapper) cannot materialise the address of a global: every block that passed
one to the phi fell back to the SelectionDAG, and the wrapper's code generation took ~30% more
instructions (softmax: 24M -> 17M per build). The check blocks now move a small integer where
they moved a 64-bit address (``movabs``).
"""
from __future__ import annotations

import re
from typing import Any, TypeAlias

from llvmlite import ir

from ...tir import expr as E
from ...tir import stmt as S
from ...tir.analysis import undefined_vars
from ...tir.stmt_functor import substitute
from .assert_text import condition_text, condition_text_and_vars
from .core import CodeGenLLVM, register
from .ir_text import block_label
from .ir_values import StringGlobal
from .types import I8, I32, I64, PTR, CodegenError, ir_const

_PLACEHOLDER = re.compile(r"\{(\w+)\}")
Piece: TypeAlias = "str | ir.Value"  # (llvmlite is untyped: a string for type checkers)
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
        pieces.append(f", {s.error_message}")
    span = s.span
    if span is not None and span.source_name and not span.source_name.startswith("<"):
        pieces.append(f" at {span.source_name}:{span.line}:{span.column + 1}")
    return pieces


class FailureExit:  # pylint: disable=too-few-public-methods
    """A function's failure exit: the ``assert_fail`` block, the phi of message offsets into the
    function's message table, the table's text so far and the snprintf buffer (if any)."""

    def __init__(self, block: ir.Block, phi: Any) -> None:
        self.block, self.phi = block, phi
        self.text = bytearray()
        self.offsets: dict[str, int] = {}
        self.buffer: ir.Value | None = None

    def offset(self, message: str) -> ir.Value:
        """The i64 offset of ``message`` (NUL-terminated) in the table, added on first use."""
        at = self.offsets.get(message)
        if at is None:
            at = self.offsets[message] = len(self.text)
            self.text += message.encode("utf-8") + b"\0"
        return ir_const(I64, at)


#: the phi's value for "the message formatted into the buffer"
_FORMATTED = -1


def _emit_message(cg: CodeGenLLVM, exit_: FailureExit, pieces: list[Piece]) -> ir.Value:
    """The message's phi value: its offset in the table, or :data:`_FORMATTED` after formatting
    it into the function's buffer when it holds values."""
    if all(isinstance(p, str) for p in pieces):
        return exit_.offset("".join(pieces))
    fmt = "".join("%lld" if not isinstance(p, str) else p.replace("%", "%%") for p in pieces)
    values = [_as_i64(cg, p) for p in pieces if not isinstance(p, str)]
    if exit_.buffer is None:
        exit_.buffer = cg.alloca(_MESSAGE_BUFFER)
    snprintf = cg.declare("snprintf", I32, _SNPRINTF_ARGS, var_arg=True)
    cg.builder.call(snprintf, [exit_.buffer, ir_const(I64, _MESSAGE_BUFFER.count),
                               cg.string_constant(fmt), *values])
    return ir_const(I64, _FORMATTED)


def failure_exit(cg: CodeGenLLVM) -> FailureExit:
    """The current function's failure exit, made on first use: a block that calls
    ``TVMAPISetLastError(message)`` and returns the error (:meth:`CodeGenLLVM.return_error`).
    A failing assertion branches there, adding its message's offset as the phi's incoming
    value; the message table and the call are emitted once the function's body is
    (:func:`_finish_exit`)."""
    fs = cg.fs
    assert fs is not None
    exit_ = fs.assert_exit
    if exit_ is None:
        here = cg.builder.block
        block = cg.new_block("assert_fail")
        cg.builder.position_at_end(block)
        exit_ = fs.assert_exit = FailureExit(block, cg.builder.phi(I64, "assert_msg"))
        cg.builder.position_at_end(here)
        fs.finishers.append(lambda: _finish_exit(cg, exit_))
    return exit_


def _finish_exit(cg: CodeGenLLVM, exit_: FailureExit) -> None:
    """``@.msgs = c"<message>\\00<message>\\00..."`` and, in the exit block,
    ``TVMAPISetLastError(@.msgs + offset)`` (the buffer for :data:`_FORMATTED`), ``ret -1``."""
    bld = cg.builder
    bld.position_at_end(exit_.block)
    msg = exit_.phi
    if exit_.text:
        table = StringGlobal(cg.module, cg.fresh_name(".msgs"), bytes(exit_.text))
        msg = bld.gep(table, [exit_.phi], source_etype=I8)
    if exit_.buffer is not None:
        formatted = bld.icmp_signed("==", exit_.phi, ir_const(I64, _FORMATTED))
        msg = bld.select(formatted, exit_.buffer, msg) if exit_.text else exit_.buffer
    cg.set_error(msg)
    cg.return_error()


def _branch_unless(cg: CodeGenLLVM, cond: ir.Value, fail: ir.Block) -> None:
    """``br cond, <label>.endif, fail`` (weights 99:1), continuing in ``.endif``."""
    bld = cg.builder
    cont = cg.new_block(block_label(bld.block) + ".endif")
    bld.cbranch(cond, cont, fail).set_weights([99, 1])
    bld.position_at_end(cont)


@register(S.AssertStmt)
def _assert(cg: CodeGenLLVM, s: S.AssertStmt) -> None:
    cond = cg.expr(s.condition)
    exit_ = failure_exit(cg)
    phi = exit_.phi
    text = s.error_message
    bound = text.startswith("OUT OF THE BOUNDS")
    pieces = None if bound and _PLACEHOLDER.search(text) else \
        [text] if bound else _assert_pieces(cg, s)
    if pieces is not None and all(isinstance(p, str) for p in pieces):
        phi.add_incoming(exit_.offset("".join(pieces)), cg.builder.block)
        _branch_unless(cg, cond, phi.parent)
    else:  # values to format: on a block of its own, the failure path only
        fail = cg.new_block(block_label(cg.builder.block) + ".if")
        _branch_unless(cg, cond, fail)
        cont = cg.builder.block
        cg.builder.position_at_end(fail)
        if pieces is None:
            pieces = _bound_check_pieces(cg, s, text)
        phi.add_incoming(_emit_message(cg, exit_, pieces), cg.builder.block)
        cg.builder.branch(phi.parent)
        cg.builder.position_at_end(cont)
    cg.stmt(s.body)
