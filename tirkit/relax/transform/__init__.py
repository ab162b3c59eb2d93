"""Relax passes (mirrors ``tvm.relax.transform``): LegalizeOps, FuseOps, FuseTIR."""
from __future__ import annotations

from .legalize_ops import LegalizeOps, register_legalize

__all__ = ["LegalizeOps", "register_legalize"]
