"""Integer arithmetic analysis: simplification, bounds, modular sets, affine iterator maps
(mirrors ``tvm.arith``)."""
from .analyzer import Analyzer
from .bound import ConstIntBound
from .iter_affine_map import detect_iter_map, iter_map_simplify
from .iter_map_expr import (IterMapExpr, IterMapResult, IterMark, IterSplitExpr, IterSumExpr,
                            normalize_iter_map_to_expr)
from .modular_set import ModularSet

__all__ = [
    "Analyzer", "ConstIntBound", "ModularSet", "detect_iter_map", "iter_map_simplify",
    "IterMapExpr", "IterMapResult", "IterMark", "IterSplitExpr", "IterSumExpr",
    "normalize_iter_map_to_expr",
]
