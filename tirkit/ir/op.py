"""Primitive operators and their registry (mirrors ``tvm.ir.Op`` and ``TCallEffectKind``)."""
from __future__ import annotations

from dataclasses import field
from enum import IntEnum
from typing import Any

from .expr import BaseExpr
from .node import node


class CallEffectKind(IntEnum):
    """Side effects of a call (mirrors ``tvm.tir.CallEffectKind``)."""

    EXPR_ANNOTATION = 0
    PURE = 1
    READ_STATE = 2
    UPDATE_STATE = 3
    OPAQUE = 4
    SPECIAL_CALL_ARG = 5
    EMBEDDED = 6
    CONTROL_JUMP = 7


@node
class Op(BaseExpr):
    """A primitive operator such as ``tir.exp`` (mirrors ``tvm.ir.Op``).

    Ops are interned: one object per name, obtained with :meth:`Op.get`. ``num_inputs`` is ``-1``
    for variadic ops. ``attrs`` holds further registered attributes (e.g. ``"TGlobalSymbol"``,
    ``"TScriptPrinterName"``, ``"TVectorizable"``).
    """

    name: str
    num_inputs: int = -1
    effect: CallEffectKind = CallEffectKind.OPAQUE
    doc: str = ""
    attrs: dict[str, Any] = field(default_factory=dict)

    def __hash__(self) -> int:
        return hash(self.name)

    @staticmethod
    def get(name: str) -> "Op":
        """The registered op called ``name`` (``tvm.ir.Op.get``).

        Raises:
            KeyError: when no op of that name is registered, naming it.
        """
        try:
            return _REGISTRY[name]
        except KeyError:
            raise KeyError(f"operator {name!r} is not registered") from None

    @property
    def is_pure(self) -> bool:
        """Whether calls have no side effects (``kPure`` or ``kExprAnnotation``)."""
        return self.effect in (CallEffectKind.PURE, CallEffectKind.EXPR_ANNOTATION)

    def with_changes(self, **changes: Any) -> "Op":
        return self  # ops are interned and never rewritten


_REGISTRY: dict[str, Op] = {}


def register_op(name: str, num_inputs: int = -1, effect: CallEffectKind = CallEffectKind.OPAQUE,
                doc: str = "", **attrs: Any) -> Op:
    """Register (or return the already registered) op ``name`` (``TVM_REGISTER_OP``)."""
    if name in _REGISTRY:
        return _REGISTRY[name]
    op = Op(name, num_inputs, effect, doc, dict(attrs))
    _REGISTRY[name] = op
    return op


def list_ops() -> list[str]:
    """Names of all registered ops, sorted (``tvm.ir.Op.list_op_names``)."""
    return sorted(_REGISTRY)
