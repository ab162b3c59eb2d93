"""The table of LegalizeOps: operator name -> the function that legalizes a call of it (TVM's
``FLegalize`` op attribute), filled by :mod:`.legalize_impls` through :func:`register_legalize`
and read by :class:`~tirkit.relax.transform.legalize_ops.LegalizeOps`.
"""
from __future__ import annotations

from typing import Callable

from .. import expr as rx
from ..block_builder import BlockBuilder

__all__ = ["LegalizeFn", "LEGALIZE", "register_legalize"]

LegalizeFn = Callable[[BlockBuilder, rx.Call], rx.Expr]
#: operator name -> its legalization
LEGALIZE: dict[str, LegalizeFn] = {}


def register_legalize(*op_names: str) -> Callable[[LegalizeFn], LegalizeFn]:
    """Register the legalization of ops (TVM's ``FLegalize`` attribute): the function receives
    the BlockBuilder and the call and returns its replacement."""
    def deco(fn: LegalizeFn) -> LegalizeFn:
        for name in op_names:
            LEGALIZE[name] = fn
        return fn
    return deco
