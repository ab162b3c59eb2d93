"""FastMathTransform: softmax, exp, erf and tanh become ``call_tir`` calls of their fast-math
TOPI forms (mirrors ``tvm.relax.transform.FastMathTransform``, ``relax/transform/fast_math.py``).

One row per operator in :data:`FAST_MATH`: ``relax.nn.softmax`` -> ``topi.nn.fast_softmax``,
``relax.exp`` -> ``topi.fast_exp``, ``relax.erf`` -> ``topi.fast_erf``, ``relax.tanh`` ->
``topi.fast_tanh``, each a ``bb.call_te`` whose PrimFunc is named after the topi function (as
TVM's ``call_te`` names it). Every other binding is kept. Run it before ``relax.build`` (TVM
does not put it in the default pipeline either).
"""
from __future__ import annotations

from typing import Any, Callable

from tirkit import topi
from tirkit.ir.module import IRModule
from tirkit.ir.op import Op

from .. import expr as rx
from ..block_builder import BlockBuilder

__all__ = ["FastMathTransform", "FAST_MATH"]


def _unary(fn: Callable[..., Any]) -> Callable[[BlockBuilder, Any], rx.Expr]:
    return lambda bb, call: bb.call_te(fn, call.args[0])


#: operator name -> the replacement of one of its calls (TVM's ``FastMathCodeGenerator``)
FAST_MATH: dict[str, Callable[[BlockBuilder, Any], rx.Expr]] = {
    "relax.nn.softmax": lambda bb, call: bb.call_te(topi.nn.fast_softmax, call.args[0],
                                                   call.attrs.get("axis", -1)),
    "relax.exp": _unary(topi.fast_exp),
    "relax.erf": _unary(topi.fast_erf),
    "relax.tanh": _unary(topi.fast_tanh),
}


class FastMathTransform:  # pylint: disable=too-few-public-methods  # a pass is a callable
    """The pass object: ``FastMathTransform()(mod)`` returns ``mod`` with the calls of
    :data:`FAST_MATH`'s operators replaced, or ``mod`` itself when it has none
    (``relax.transform.FastMathTransform``). The results are TOPI's fast-math approximations
    (float32; see :mod:`tirkit.topi.fast_math` for their accuracy)."""

    def __call__(self, mod: IRModule) -> IRModule:
        todo = [(gv, f) for gv, f in mod.functions.items()
                if isinstance(f, rx.Function) and any(_rule(b) for b in _bindings(f))]
        if not todo:
            return mod
        bb = BlockBuilder(mod)
        for gv, func in todo:
            bb.update_func(gv, _rewrite(bb, func))
        return bb.get()


def _bindings(func: rx.Function) -> list[Any]:
    body = func.body
    return [b for block in body.blocks for b in block.bindings] \
        if isinstance(body, rx.SeqExpr) else []


def _rule(binding: Any) -> Callable[[BlockBuilder, Any], rx.Expr] | None:
    value = binding.value if isinstance(binding, rx.VarBinding) else None
    if isinstance(value, rx.Call) and isinstance(value.op, Op):
        return FAST_MATH.get(value.op.name)
    return None


def _rewrite(bb: BlockBuilder, func: rx.Function) -> rx.Function:
    body = func.body
    assert isinstance(body, rx.SeqExpr)  # _bindings found calls in it
    blocks = []
    for block in body.blocks:
        bindings: list[rx.Binding] = []
        for b in block.bindings:
            rule = _rule(b)
            if rule is not None and isinstance(b, rx.VarBinding):
                b = b.with_changes(value=rule(bb, b.value))
            bindings.append(b)
        blocks.append(block.with_changes(bindings=tuple(bindings)))
    return func.with_changes(body=body.with_changes(blocks=tuple(blocks)))
