"""Features of a scheduled PrimFunc for the cost model (a small version of MetaSchedule's
``PerStoreFeature``): for every buffer store, the loop nest around it — trip counts, the
innermost loop's extent and kind, parallel and vectorized extents, unrolling — and how each
access moves with the innermost loop (unit stride, reuse, other). The per-store vectors are
summed and log-scaled into one fixed-length vector.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from tirkit import tir

FEATURE_NAMES = [
    "stores", "total_iters", "loop_depth", "inner_extent", "inner_vectorized", "vector_lanes",
    "parallel_extent", "unrolled_iters", "auto_unroll_step", "unit_stride_accesses",
    "reused_accesses", "strided_accesses", "accesses", "blocks", "inner_reduction",
    "bytes_touched",
]


def _extent(loop: tir.For) -> int:
    return int(loop.extent.value) if isinstance(loop.extent, tir.IntImm) else 64


class _Collector:
    def __init__(self) -> None:
        self.rows: list[np.ndarray] = []
        self.loops: list[tir.For] = []
        self.bindings: dict[int, Any] = {}
        self.reduce_vars: set[int] = set()
        self.blocks = 0

    def visit(self, node: Any) -> None:
        fn: Any = _VISIT.get(type(node))
        if fn is not None:
            fn(self, node)
        elif isinstance(node, tir.SeqStmt):
            for s in node.seq:
                self.visit(s)
        elif hasattr(node, "body") and isinstance(getattr(node, "body"), tir.Stmt):
            self.visit(node.body)

    def loop(self, node: tir.For) -> None:
        self.loops.append(node)
        self.visit(node.body)
        self.loops.pop()

    def realize(self, node: tir.BlockRealize) -> None:
        self.blocks += 1
        for iv, value in zip(node.block.iter_vars, node.iter_values):
            self.bindings[id(iv.var)] = value
            if iv.iter_type == tir.IterVarType.CommReduce:
                for v in _vars(value):
                    self.reduce_vars.add(id(v))
        if node.block.init is not None:
            self.visit(node.block.init)
        self.visit(node.block.body)

    def store(self, node: tir.BufferStore) -> None:
        self.rows.append(self._row(node))

    def _row(self, store: tir.BufferStore) -> np.ndarray:
        row = np.zeros(len(FEATURE_NAMES))
        extents = [_extent(lp) for lp in self.loops]
        total = math.prod(extents) if extents else 1
        inner = self.loops[-1] if self.loops else None
        row[0], row[1], row[2] = 1, total, len(self.loops)
        if inner is not None:
            row[3] = _extent(inner)
            row[4] = float(inner.kind == tir.ForKind.VECTORIZED)
            row[5] = _extent(inner) if row[4] else 1
            row[14] = float(id(inner.loop_var) in self.reduce_vars)
        row[6] = math.prod(_extent(lp) for lp in self.loops if lp.kind == tir.ForKind.PARALLEL)
        row[7] = math.prod(_extent(lp) for lp in self.loops if lp.kind == tir.ForKind.UNROLLED)
        row[8] = max((int(lp.annotations.get("pragma_auto_unroll_max_step", 0) or 0)
                      for lp in self.loops), default=0)
        loads: list[Any] = []
        tir.stmt_functor.post_order_visit(store.value, lambda n: loads.append(n)
                                          if isinstance(n, tir.BufferLoad) else None)
        for access in loads + [store]:
            kind = self._stride_kind(access, inner)
            row[9 + kind] += 1
            row[12] += 1
            row[15] += total * access.buffer.dtype.bits / 8
        row[13] = self.blocks
        return row

    def _stride_kind(self, access: Any, inner: tir.For | None) -> int:
        """0 unit stride, 1 does not move with the innermost loop (reuse), 2 other."""
        if inner is None or not access.indices:
            return 1
        target = inner.loop_var
        moves = [self._uses(i, target) for i in access.indices]
        if not any(moves):
            return 1
        return 0 if moves[-1] and not any(moves[:-1]) else 2

    def _uses(self, expr: Any, var: tir.Var) -> bool:
        for v in _vars(expr):
            if v is var:
                return True
            bound = self.bindings.get(id(v))
            if bound is not None and any(u is var for u in _vars(bound)):
                return True
        return False


def _vars(expr: Any) -> list[tir.Var]:
    found: list[tir.Var] = []
    tir.stmt_functor.post_order_visit(expr, lambda n: found.append(n)
                                      if isinstance(n, tir.Var) else None)
    return found


_VISIT = {tir.For: _Collector.loop, tir.BlockRealize: _Collector.realize,
          tir.BufferStore: _Collector.store}


def extract(func_or_mod: Any) -> np.ndarray:
    """The feature vector of a scheduled PrimFunc (or the PrimFuncs of a module), log-scaled:
    ``len(FEATURE_NAMES)`` float64 values."""
    funcs = [func_or_mod] if isinstance(func_or_mod, tir.PrimFunc) else \
        [f for f in func_or_mod.functions.values() if isinstance(f, tir.PrimFunc)]
    total = np.zeros(len(FEATURE_NAMES))
    for func in funcs:
        col = _Collector()
        col.visit(func.body)
        if col.rows:
            total += np.sum(col.rows, axis=0)
    return np.log2(1.0 + total)
