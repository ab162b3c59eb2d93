"""Helpers shared by the optimisation passes (no pass is registered here).

Mirrors small utilities of TVM's ``src/tir/transforms/ir_utils.h`` and ``remove_no_op.cc``:
``is_no_op``, ``MakeEvaluate``, side-effect classification of expressions, and the
``prim_func`` plumbing that keeps a function identical when its body did not change.
"""
from __future__ import annotations

from typing import Any, Callable

from tirkit.ir.expr import FloatImm, IntImm, PrimExpr
from tirkit.ir.op import CallEffectKind, Op
from tirkit.tir import stmt as S
from tirkit.tir.analysis import expr_deep_equal
from tirkit.tir.expr import BufferLoad, Call, Var
from tirkit.tir.function import PrimFunc
from tirkit.tir.stmt_functor import post_order_visit


def is_no_op(stmt: S.Stmt | None) -> bool:
    """Whether ``stmt`` does nothing: ``None``, an empty SeqStmt, or ``Evaluate`` of a constant
    (mirrors TVM's ``is_no_op`` in ``remove_no_op.cc``)."""
    if stmt is None:
        return True
    if isinstance(stmt, S.SeqStmt):
        return len(stmt.seq) == 0
    if isinstance(stmt, S.Evaluate):
        return isinstance(stmt.value, (IntImm, FloatImm))
    return False


def side_effect(expr: PrimExpr) -> CallEffectKind:
    """The strongest side effect of any call in ``expr`` (mirrors TVM's ``SideEffect``):
    ``PURE`` when it only computes, ``READ_STATE`` when it loads memory."""
    worst = [CallEffectKind.PURE]

    def visit(node: Any) -> None:
        if isinstance(node, BufferLoad):
            worst[0] = max(worst[0], CallEffectKind.READ_STATE)
        elif isinstance(node, Call):
            kind = node.op.effect if isinstance(node.op, Op) else CallEffectKind.UPDATE_STATE
            if kind == CallEffectKind.EXPR_ANNOTATION:
                kind = CallEffectKind.PURE
            worst[0] = max(worst[0], kind)
    post_order_visit(expr, visit)
    return worst[0]


def make_evaluate(expr: PrimExpr, span: Any = None) -> S.Stmt:
    """``Evaluate(expr)``, or the no-op ``Evaluate(0)`` when ``expr`` has no side effect worth
    keeping (mirrors TVM's ``MakeEvaluate`` in ``remove_no_op.cc``)."""
    if side_effect(expr) <= CallEffectKind.READ_STATE:
        return S.Evaluate(IntImm("int32", 0), span=span)
    return S.Evaluate(expr, span=span)


def is_self_store(store: S.BufferStore) -> bool:
    """Whether ``store`` writes back the value it reads from the same place: ``A[i] = A[i]``
    (the no-op store check of TVM's ``Simplify``/``RemoveNoOp``)."""
    load = store.value
    return (isinstance(load, BufferLoad) and load.buffer.data is store.buffer.data
            and store.predicate is None and load.predicate is None
            and expr_deep_equal(load.indices, store.indices))


def uses_var(node: Any, pred: Callable[[Var], bool]) -> bool:
    """Whether a Var satisfying ``pred`` occurs in ``node`` (mirrors TVM's ``UsesVar``)."""
    found = [False]

    def visit(n: Any) -> Any:
        if found[0]:
            return False
        if isinstance(n, Var) and pred(n):
            found[0] = True
        elif isinstance(n, (BufferLoad, S.BufferStore)) and pred(n.buffer.data):
            found[0] = True
        return None
    from tirkit.tir.stmt_functor import pre_order_visit  # pylint: disable=import-outside-toplevel

    pre_order_visit(node, visit)
    return found[0]


def with_body(func: PrimFunc, body: S.Stmt) -> PrimFunc:
    """``func`` itself when ``body`` is its body, else a copy with the new body (the
    copy-on-write of TVM's ``PrimFuncNode::CopyOnWrite``)."""
    return func if body is func.body else func.with_changes(body=body)


class DeferredBinds:
    """An :class:`~tirkit.arith.Analyzer` whose ``bind`` calls are made when it is first asked
    anything else, in the order they came (no TVM counterpart; TVM's ``IRMutatorWithAnalyzer``
    binds every loop and let variable at once, which is cheap in C++). A bind simplifies the
    value and analyses its bounds and modular set; passes that bind every loop but query only
    for some statements (LowerIntrin, CompactBufferAllocation, LowerMatchBuffer) skip that work
    when they never query. The answers are those of an analyzer bound eagerly.

    Raises:
        TypeError: at ``bind``, as ``Analyzer.bind`` does, when ``var`` is not a Var.
    """

    def __init__(self) -> None:
        from tirkit.arith import Analyzer  # pylint: disable=import-outside-toplevel

        self._analyzer = Analyzer()
        self._pending: list[tuple[tuple[Any, ...], dict[str, Any]]] = []

    def bind(self, var: Any, *args: Any, **kwargs: Any) -> None:
        """Record ``Analyzer.bind(var, ...)`` (made before the next query)."""
        if not isinstance(var, Var):
            self.analyzer.bind(var, *args, **kwargs)  # raises as Analyzer.bind does
        self._pending.append(((var, *args), kwargs))

    @property
    def analyzer(self) -> Any:
        """The analyzer with every recorded bind made."""
        if self._pending:
            pending, self._pending = self._pending, []
            for args, kwargs in pending:
                self._analyzer.bind(*args, **kwargs)
        return self._analyzer

    def __getattr__(self, name: str) -> Any:
        return getattr(self.analyzer, name)
