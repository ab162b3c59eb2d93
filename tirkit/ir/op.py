"""Primitive operators and their registry (mirrors ``tvm.ir.Op`` and ``TCallEffectKind``)."""
from __future__ import annotations

from dataclasses import field
from enum import IntEnum
from typing import Any

from .expr import BaseExpr
from .node import node


class CallEffectKind(IntEnum):
    """Side effects of a call (mirrors ``tvm.tir.CallEffectKind`` / C++ ``CallEffectKind``).

    Values are TVM's: ``OPAQUE`` is an alias of ``UPDATE_STATE`` (3) as in TVM, and
    ``EMBEDDED`` is TVM's ``kEmbedInfo`` (5).
    """

    EXPR_ANNOTATION = 0
    PURE = 1
    READ_STATE = 2
    UPDATE_STATE = 3
    OPAQUE = 3  # alias of UPDATE_STATE, as TVM's kOpaque
    SPECIAL_CALL_ARG = 4
    EMBEDDED = 5
    CONTROL_JUMP = 6


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

    __interned__ = True  # one object per name, shared by every Call: it has no source span

    def __hash__(self) -> int:
        return hash(self.name)

    def __repr__(self) -> str:
        return f"Op({self.name})"  # as TVM prints ops

    @staticmethod
    def get(name: str) -> "Op":
        """The registered op called ``name`` (``tvm.ir.Op.get``).

        Raises:
            KeyError: when no op of that name is registered, naming it (and the closest
            registered names, if any).
        """
        try:
            return _REGISTRY[name]
        except KeyError:
            if isinstance(name, str) and name.startswith("tirx.") and \
                    "tir." + name[5:] in _REGISTRY:
                return _REGISTRY["tir." + name[5:]]  # TVM 0.27 names TIR's ops tirx.*
            import difflib  # pylint: disable=import-outside-toplevel

            close = difflib.get_close_matches(str(name), list(_REGISTRY), n=3)
            hint = f"; did you mean {', '.join(map(repr, close))}?" if close else ""
            raise KeyError(f"operator {name!r} is not registered{hint}") from None

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
