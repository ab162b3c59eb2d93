"""Integer arithmetic analysis: simplification, bounds, modular sets, affine iterator maps
(mirrors ``tvm.arith``)."""
from types import SimpleNamespace as _SimpleNamespace

from .. import _layers
from . import int_set as _int_set
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

# IndexMap, Buffer slicing and the block region detection of tirkit.tir (one layer down) analyse
# with these (see tirkit._layers)
_layers.provide("arith", _SimpleNamespace(
    Analyzer=Analyzer, detect_iter_map=detect_iter_map, eval_set=_int_set.eval_set,
    IntervalSet=_int_set.IntervalSet, IterSumExpr=IterSumExpr))
