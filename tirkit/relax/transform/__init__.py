"""Relax passes (mirrors ``tvm.relax.transform``): LegalizeOps, FuseOps, FuseTIR,
FastMathTransform."""
from __future__ import annotations

from .fast_math import FastMathTransform
from .fuse_ops import AnnotateTIROpPattern, FuseOps, OpPatternKind
from .fuse_tir import FuseTIR
from .legalize_ops import LegalizeOps
from .legalize_registry import register_legalize

__all__ = ["LegalizeOps", "register_legalize", "AnnotateTIROpPattern", "FuseOps", "FuseTIR",
           "OpPatternKind", "FastMathTransform"]
