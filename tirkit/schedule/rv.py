"""Random variables of a schedule (mirrors ``tvm.tir.schedule.BlockRV``, ``LoopRV`` and
``ExprRV``).

A BlockRV/LoopRV is an opaque handle the schedule maps to a block/loop sref; an ExprRV is a
``tir.Var`` (int32) the schedule maps to an integer (a sampled tile size, a categorical choice).
"""
from __future__ import annotations

from typing import Union

from ..tir.expr import Var


class BlockRV:
    """A random variable that evaluates to a block (mirrors ``tvm.tir.schedule.BlockRV``)."""

    __slots__ = ("__weakref__",)

    def __repr__(self) -> str:
        return f"BlockRV({id(self):#x})"


class LoopRV:
    """A random variable that evaluates to a loop (mirrors ``tvm.tir.schedule.LoopRV``)."""

    __slots__ = ("__weakref__",)

    def __repr__(self) -> str:
        return f"LoopRV({id(self):#x})"


#: ``tvm.tir.schedule.ExprRV``: an integer-valued random variable is a ``tir.Var``.
ExprRV = Var

RAND_VAR_TYPE = Union[BlockRV, LoopRV, Var]


def new_expr_rv() -> Var:
    """A fresh ExprRV (``Var("v", "int32")``, as TVM's ``ConcreteSchedule::CreateRV``)."""
    return Var("v", "int32")
