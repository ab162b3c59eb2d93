"""``InstrumentBoundCheckers``: runtime checks that every store and the loads it does stay inside
their buffers (mirrors ``tvm.tir.transform.InstrumentBoundCheckers``,
``src/tir/transforms/bound_checker.cc``).

Only active under config ``"tir.instrument_bound_checkers": True``. Each ``BufferStore`` becomes::

    if 0 <= idx_A and idx_A < size_A and ...:     # int64, flattened indices
        A[...] = ...
    else:
        assert cond_A, "OUT OF THE BOUNDS: A[{index}] is read ... at FILE:LINE:COL ..."
        assert cond_B, ...
        T.evaluate(1)

where the condition covers the store and every load in its value and indices. Each access gets
its own assertion whose message names the buffer, its size, the index expression and the source
position of the access (spans survive the pipeline); ``{index}`` and ``{VAR}`` placeholders are
filled with the run-time values by the code generator (``codegen/stmt.py``), so a failure reads
``A[64] is read out of its 64 elements (index vi + 1 with vi = 63) at k.py:10:22``, not in terms
of CSE temporaries. TVM's message is a fixed ``OUT OF THE BOUNDS`` text. TVM takes the
sizes from ``buffer_bound`` attributes emitted by its legacy ``StorageFlatten``; tirkit takes
them from the buffers' own shapes (so TensorIR-lowered code is checked too). A vector index
that is a ``Ramp`` is checked at its last lane; any other vector index (a gather or scatter such
as ``floordiv(ramp, 2)``) on every lane, a vector condition reduced by
``llvm.vector.reduce.and`` (TVM casts it to a scalar ``int64`` as tirkit did, which fails).
"""
from __future__ import annotations

from functools import reduce
from typing import Any, cast

from tirkit.arith import Analyzer
from tirkit.ir.expr import IntImm, PrimExpr
from tirkit.tir import expr as E
from tirkit.tir import op as tir_op
from tirkit.tir.op_intrin import call_llvm_pure_intrin
from tirkit.tir import stmt as S
from tirkit.tir.buffer import Buffer
from tirkit.tir.stmt_functor import StmtMutator, post_order_visit

from ..transform import register_pass, prim_func_pass
from ._opt_common import with_body

CONFIG_KEY = "tir.instrument_bound_checkers"


def flat_index(buf: Buffer, indices: tuple[PrimExpr, ...], lanes: int = 1) -> PrimExpr:
    """The row-major element offset of ``indices`` in ``buf`` (the last lane of a Ramp index);
    with ``lanes > 1``, the ``int64x{lanes}`` vector of every lane's offset (scalar indices
    broadcast); no TVM counterpart (TVM checks already flattened indices)."""
    def last_lane(i: PrimExpr) -> PrimExpr:
        if isinstance(i, E.Ramp):
            return tir_op.add(i.base, tir_op.multiply(i.stride, i.lanes - 1))
        return i

    def as_i64(i: PrimExpr) -> PrimExpr:
        if lanes == 1:
            return tir_op.cast("int64", last_lane(i))
        if i.dtype.lanes == 1:
            return E.Broadcast(tir_op.cast("int64", i), lanes)
        return tir_op.cast(f"int64x{lanes}", i)
    out: PrimExpr = IntImm("int64", 0) if lanes == 1 else E.Broadcast(IntImm("int64", 0), lanes)
    for dim, idx in zip(buf.shape, indices):
        out = tir_op.add(tir_op.multiply(out, as_i64(dim)), as_i64(idx))
    return out


def _size(buf: Buffer) -> PrimExpr:
    one: PrimExpr = IntImm("int64", 1)
    return reduce(tir_op.multiply, (tir_op.cast("int64", d) for d in buf.shape), one)


def _checkable(buf: Buffer, indices: Any) -> bool:
    return bool(buf.shape) and len(indices) == len(buf.shape)


class BoundChecker(StmtMutator):
    """The mutator behind :func:`InstrumentBoundCheckers` (TVM's ``BoundChecker``)."""

    def __init__(self) -> None:
        self.analyzer = Analyzer()

    def visit_buffer_store_(self, op: S.BufferStore) -> S.Stmt:
        accesses: list[tuple[Buffer, tuple, str, Any]] = []
        guarded: set[int] = set()

        def mark(n: Any) -> None:
            # loads under tir.if_then_else are guarded by its condition: TVM's bound checker
            # stops instrumenting them (its ``unsafe_rewritten_`` flag)
            if isinstance(n, E.Call) and getattr(n.op, "name", None) == "tir.if_then_else":
                for branch in n.args[1:]:
                    post_order_visit(branch, lambda m: guarded.add(id(m)))

        def collect(n: Any) -> None:
            if isinstance(n, E.BufferLoad) and id(n) not in guarded and \
                    _checkable(n.buffer, n.indices):
                accesses.append((n.buffer, n.indices, "read", n.span))
        for e in (op.value, *op.indices):
            post_order_visit(e, mark)
            post_order_visit(e, collect)
        if _checkable(op.buffer, op.indices):
            accesses.append((op.buffer, op.indices, "written", op.span))
        if not accesses:
            return op
        parts = [self.part(buf, indices) for buf, indices, _, _ in accesses]
        cond = reduce(E.And, parts)
        check: S.Stmt = S.Evaluate(IntImm("int32", 1), span=op.span)
        for part, (buf, indices, verb, span) in reversed(list(zip(parts, accesses))):
            message = E.StringImm(access_message(buf, indices, verb, span or op.span),
                                  span=span or op.span)
            check = S.AssertStmt(part, message, check, span=span or op.span)
        return S.IfThenElse(cond, op, check, span=op.span)

    def part(self, buf: Buffer, indices: tuple) -> PrimExpr:
        """``0 <= idx && idx < size`` for one access (a term of TVM's ``MakeCondition``); for
        a vector index that is not a ``Ramp`` (``floordiv(ramp, 24)`` of a vectorized fused
        loop), the same for every lane: a vector condition reduced by
        ``llvm.vector.reduce.and``."""
        size = self.analyzer.simplify(_size(buf))
        if any(i.dtype.lanes > 1 and not isinstance(i, E.Ramp) for i in indices):
            lanes = max(i.dtype.lanes for i in indices)
            vec = self.analyzer.simplify(flat_index(buf, indices, lanes))
            inside = E.And(E.GE(vec, E.Broadcast(IntImm("int64", 0), lanes)),
                           E.LT(vec, E.Broadcast(size, lanes)))
            return call_llvm_pure_intrin("bool", f"llvm.vector.reduce.and.v{lanes}i1",
                                         IntImm("uint32", 1), inside)
        idx = self.analyzer.simplify(flat_index(buf, indices))
        return E.And(E.GE(idx, IntImm("int64", 0)), E.LT(idx, size))


def _text(expr: PrimExpr) -> str:
    from tirkit.printer import script  # pylint: disable=import-outside-toplevel

    try:
        return script(expr)
    except Exception:  # pylint: disable=broad-except  # a message without it still helps
        return "?"


def access_message(buf: Buffer, indices: tuple, verb: str, span: Any) -> str:
    """The assertion message of one access: buffer, size, index expression with placeholders
    for the run-time values of the flat index and of the variables it uses, source position."""
    from tirkit.tir.analysis import undefined_vars  # pylint: disable=import-outside-toplevel

    name = buf.data.name if getattr(buf, "data", None) is not None else buf.name
    size = _text(_size(buf)) if not all(isinstance(d, IntImm) for d in buf.shape) else \
        str(reduce(lambda a, d: a * int(cast(IntImm, d).value), buf.shape, 1))
    exprs = [i.base if isinstance(i, E.Ramp) else i for i in indices]
    names = sorted(dict.fromkeys(v.name for e in exprs for v in undefined_vars(e)))
    values = ", ".join(f"{n} = {{{n}}}" for n in names if n.isidentifier())
    where = f" at {span.source_name}:{span.line}:{span.column + 1}" if span is not None and \
        span.source_name else ""
    index = ", ".join(_text(e) for e in exprs)
    detail = f"index {index}" + (f" with {values}" if values else "")
    return (f"OUT OF THE BOUNDS: {name}[{{index}}] is {verb} out of its {size} elements "
            f"({detail}){where}")


@register_pass("InstrumentBoundCheckers")
def InstrumentBoundCheckers():  # pylint: disable=invalid-name
    """The pass adding bound checks (mirrors ``tvm.tir.transform.InstrumentBoundCheckers``);
    does nothing unless config ``"tir.instrument_bound_checkers"`` is true."""
    @prim_func_pass("InstrumentBoundCheckers", opt_level=0)
    def run(func, mod, ctx):  # pylint: disable=unused-argument
        if not ctx.get(CONFIG_KEY, False):
            return func
        return with_body(func, BoundChecker()(func.body))
    return run
