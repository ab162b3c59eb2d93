"""LegalizeOps: high-level operators become ``call_tir`` calls of PrimFuncs made from
``tirkit.topi`` (mirrors ``tvm.relax.transform.LegalizeOps``).

One registration per operator (``@register_legalize("relax.add")``): the function receives the
BlockBuilder and the call and returns its replacement, normally ``bb.call_te(topi.add, x, y)``.
The table and ``register_legalize`` live in :mod:`.legalize_registry`, the implementations in
:mod:`.legalize_impls`.
"""
from __future__ import annotations

from typing import Any, cast

from tirkit.ir.module import IRModule
from tirkit.ir.op import Op

from .. import expr as rx
from ..block_builder import BlockBuilder
from ..op.registry import RelaxOpError
from .legalize_registry import LEGALIZE

_KEEP = {"relax.call_tir", "relax.call_tir_dyn", "relax.call_dps_packed"}


class LegalizeOps:
    """The pass object: ``LegalizeOps()(mod)`` returns the legalized module
    (``relax.transform.LegalizeOps``).

    Raises:
        RelaxOpError: for an operator without a registered legalization.
    """

    def __call__(self, mod: IRModule) -> IRModule:
        from . import legalize_impls  # noqa: F401  pylint: disable=import-outside-toplevel,unused-import

        if not any(_needs(f) for f in mod.functions.values()):
            return mod
        bb = BlockBuilder(mod)
        for gv, func in list(mod.functions.items()):
            if isinstance(func, rx.Function) and _needs(func):
                bb.update_func(gv, _legalize_function(bb, func))
        return bb.get()


def _needs(func: Any) -> bool:
    if not isinstance(func, rx.Function):
        return False
    return any(isinstance(b.value, rx.Call) and isinstance(b.value.op, Op)
               and b.value.op.name not in _KEEP
               for block in cast(rx.SeqExpr, func.body).blocks for b in block.bindings)


def _legalize_function(bb: BlockBuilder, func: rx.Function) -> rx.Function:
    blocks = []
    for block in cast(rx.SeqExpr, func.body).blocks:  # (a normalized function's body)
        bindings = []
        for b in block.bindings:
            value = b.value
            if isinstance(value, rx.Call) and isinstance(value.op, Op) and \
                    value.op.name not in _KEEP:
                fn = LEGALIZE.get(value.op.name)
                if fn is None:
                    raise RelaxOpError(f"LegalizeOps: operator {value.op.name!r} has no "
                                       "legalization")
                value = fn(bb, value)
            bindings.append(b.with_changes(value=value))
        blocks.append(type(block)(bindings))
    return func.with_changes(body=func.body.with_changes(blocks=tuple(blocks)))
