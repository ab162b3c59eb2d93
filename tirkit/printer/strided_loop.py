"""Strided loops printed back as the sugar they were parsed from
(``PrinterConfig(strided_loops=True)``; tirkit's option, off by default as TVM prints).

The parser lowers ``for i in range(start, stop, step)`` (``T.serial/parallel/vectorized/unroll``
alike) to a unit-stride loop ``i`` over ``ceildiv(stop - start, step)`` iterations whose body
sees ``start + i * step`` (``i * step`` when ``start`` is 0). A loop prints as the sugar when
that is the only way its body uses the loop var and re-parsing gives back the same extent: the
body is printed with a fresh var in place of each ``start + i * step``, and
``stop = start + (extent - 1) * step + 1``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from tirkit.arith import Analyzer
from tirkit.ir.expr import IntImm
from tirkit.ir.structural import structural_equal
from tirkit.tir import expr as E
from tirkit.tir import op as O
from tirkit.tir import stmt as S
from tirkit.tir.stmt_functor import ir_transform, post_order_visit

__all__ = ["StridedLoop", "strided_form"]

_KINDS = (S.ForKind.SERIAL, S.ForKind.PARALLEL, S.ForKind.VECTORIZED, S.ForKind.UNROLLED)


@dataclass(frozen=True)
class StridedLoop:
    """A loop printable as ``for var in kind(start, stop, step)`` over ``body``."""

    var: E.Var
    start: Any
    stop: Any
    step: IntImm
    body: Any


def _uses(node: Any, var: E.Var) -> bool:
    found: list[Any] = []
    post_order_visit(node, lambda n: found.append(n) if n is var else None)
    return bool(found)


def _is_step(node: Any, var: E.Var) -> bool:
    return isinstance(node, E.Mul) and node.a is var and isinstance(node.b, IntImm) \
        and node.b.value >= 2


def _candidates(loop: S.For) -> tuple[IntImm | None, list[Any]]:
    """The step of the first ``var * step`` in the body and the starts it is added to."""
    var, muls, starts = loop.loop_var, [], []

    def visit(n: Any) -> None:
        if _is_step(n, var):
            muls.append(n)
        elif isinstance(n, E.Add) and _is_step(n.b, var) and not _uses(n.a, var):
            starts.append(n.a)
    post_order_visit(loop.body, visit)
    return (muls[0].b if muls else None), starts


def _rewrite(loop: S.For, start: Any, step: IntImm) -> tuple[E.Var, Any] | None:
    var = loop.loop_var
    new = E.Var(var.name_hint, var.dtype)

    def post(n: Any) -> Any:
        if isinstance(n, E.Add) and _is_step(n.b, var) and \
                cast(Any, n.b).b.value == step.value and \
                start is not None and structural_equal(n.a, start):
            return new
        if start is None and _is_step(n, var) and n.b.value == step.value:
            return new
        return None
    body = ir_transform(loop.body, None, post)
    return None if _uses(body, var) else (new, body)


def strided_form(loop: S.For) -> StridedLoop | None:
    """The strided-loop sugar of ``loop`` (see the module doc), or None."""
    if loop.kind not in _KINDS or loop.annotations or loop.thread_binding is not None or \
            loop.step is not None or \
            not (isinstance(loop.min, IntImm) and loop.min.value == 0) or \
            not isinstance(loop.extent, IntImm) or loop.extent.value < 1:
        return None
    step, starts = _candidates(loop)
    if step is None:
        return None
    for start in ([starts[0]] if starts else []) + [None]:
        found = _rewrite(loop, start, step)
        if found is None:
            continue
        lo = start if start is not None else IntImm(loop.loop_var.dtype, 0)
        stop = Analyzer().simplify(O.add(lo, (loop.extent.value - 1) * step.value + 1))
        count = Analyzer().simplify(O.floordiv(O.subtract(stop, lo) + (step.value - 1), step))
        if structural_equal(count, loop.extent):
            return StridedLoop(found[0], lo, stop, step, found[1])
    return None
