"""Which loops of a block with ``T.init()`` must keep their relative order so that the init of an
output still runs before the other reduction steps of that output (no TVM counterpart: TVM 0.27's
``Reorder`` does not check this; used by ``reorder.py``).

The block's bindings are read as TVM's iterator map (``detect_iter_map``): each binding is a split
``floordiv(M, lo) % ext`` of an ``IterMark`` ``M``, and a fused mark is a mixed-radix sum of loops,
loop ``l`` holding the digits of place values ``[p_l, q_l)`` (``q_l = p_l * extent``). A loop is
*clean* in ``M`` when no boundary ``b`` (an ``lo`` or ``lo * ext`` of a split of ``M``) cuts its
digits unevenly: ``b <= p_l`` divides ``p_l``, ``b >= q_l`` is a multiple of ``q_l``, and a ``b``
in between is a multiple of ``p_l`` dividing ``q_l``. A clean loop's value is a sum of digits each
owned by one block var, so for each spatial point it is at its least (its reduction digits 0) in
the iteration that runs the init, whatever the loop order. The loops of ``M`` that are not clean
(fuse ``j, k`` of extents 20, split by 3: ``vj = (f0 * 3 + f1) // 20``, ``vk = (f0 * 3 + f1) %
20``) carry one number between them whose range for one output starts at the init's iteration;
its least value comes first only while they run in the order of their place values. So, when
``M`` feeds both a spatial and a reduction block var, two of its loops that are not clean must keep
the more significant one outside.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...arith.iter_affine_map import detect_iter_map
from ...arith.iter_map_expr import IterSplitExpr, IterSumExpr
from ...ir.expr import IntImm
from ...tir.expr import IterVarType, Var
from .. import analysis as A


@dataclass
class TangledMark:
    """A fused iterator of a block with an init whose splits into block vars cut some of its loops
    unevenly (no TVM counterpart).

    ``places``: the loop vars under the mark that are not clean, with their place values (of two
    such loops, the one with the larger place value must run outside); ``spatial`` / ``reduce``:
    the block iter vars it feeds, of each kind; ``bounds``: the place values where its splits
    cut it."""

    mark: Any
    places: dict[Any, int] = field(default_factory=dict)
    spatial: list[Any] = field(default_factory=list)
    reduce: list[Any] = field(default_factory=list)
    bounds: set[int] = field(default_factory=set)
    aligned: bool = True


def _int(expr: Any) -> int | None:
    return expr.value if isinstance(expr, IntImm) else None


def _pieces(mark: Any) -> list[tuple[Any, int, int | None]]:
    """``(loop var, p, q)`` for the digits of ``mark``: place values ``[p, q)``, ``q`` None for the
    top piece and -1 for a piece that is not a whole loop (never clean)."""
    src = mark.source
    if isinstance(src, Var):
        return [(src, 1, None)]
    if not isinstance(src, IterSumExpr):
        return []
    args = sorted(src.args, key=lambda a: _int(a.scale) or 0)
    out: list[tuple[Any, int, int | None]] = []
    for n, arg in enumerate(args):
        scale, ext = _int(arg.scale) or 0, _int(arg.extent)
        top = n == len(args) - 1
        whole = ext is not None and _int(arg.lower_factor) == 1 and ext == _int(arg.source.extent)
        for var, p, q in _pieces(arg.source):
            if not whole or q == -1:
                out.append((var, p * scale, -1))
            elif q is not None:
                out.append((var, p * scale, q * scale))
            else:  # the top piece of the arg ends where the arg does
                out.append((var, p * scale, None if top or ext is None else ext * scale))
    return out


def _clean(p: int, q: int | None, bounds: set[int]) -> bool:
    if p <= 0 or q == -1:
        return False
    for b in bounds:
        if b <= p:
            ok = p % b == 0
        elif q is not None and b >= q:
            ok = b % q == 0
        else:
            ok = b % p == 0 and (q is None or q % b == 0)
        if not ok:
            return False
    return True


def _walk(split: Any, iv: Any, marks: dict[str, TangledMark]) -> None:
    """Record, for each fused mark under ``split``, the block var ``iv`` that reads it, the place
    values where it is cut, and whether the pieces read are aligned with the mark's loops."""
    mark = split.source
    src = mark.source
    if not isinstance(src, IterSumExpr):
        return
    entry = marks.setdefault(repr(mark), TangledMark(mark))
    users = entry.reduce if iv.iter_type == IterVarType.CommReduce else entry.spatial
    if iv not in users:
        users.append(iv)
    lo, ext, mark_ext = _int(split.lower_factor), _int(split.extent), _int(mark.extent)
    if lo is None or ext is None or mark_ext is None or lo <= 0:
        entry.aligned = False
        return
    hi: int | None = None if lo * ext >= mark_ext else lo * ext  # None: up to the top
    entry.bounds |= {lo} | ({hi} if hi is not None else set())
    args = sorted(src.args, key=lambda a: _int(a.scale) or 0)
    place = 1
    for n, arg in enumerate(args):
        scale, arg_ext = _int(arg.scale), _int(arg.extent)
        if scale != place or arg_ext is None:
            entry.aligned = False  # not a mixed-radix fusion: nothing to rely on
            return
        place = scale * arg_ext
        a_hi = None if n == len(args) - 1 else place
        p_lo = max(lo, scale)
        p_hi = a_hi if hi is None else hi if a_hi is None else min(hi, a_hi)
        if p_hi is not None and p_lo >= p_hi:
            continue
        if p_lo % scale or p_lo % lo or (p_hi is not None and (p_hi % scale or p_hi % lo)):
            entry.aligned = False
            continue
        step = p_lo // scale
        sub_ext = p_hi // p_lo if p_hi is not None else -(-arg_ext // step)
        sub_lo = _int(arg.lower_factor)
        if sub_lo is None or arg_ext % step or (p_hi is not None and arg_ext % (step * sub_ext)):
            entry.aligned = False
            continue
        _walk(IterSplitExpr(arg.source, sub_lo * step, sub_ext, 1),
              iv, marks)


def tangled_marks(state: Any, block_sref: Any) -> list[TangledMark]:
    """The fused iterators of a block with ``T.init()`` that feed both a spatial and a reduction
    block var and have two or more loops that are not clean (see the module docstring), with
    those loops in ``places``; empty for a block without an init or whose bindings are not an
    affine map of its loops (no TVM counterpart)."""
    block = block_sref.stmt
    if block.init is None:
        return []
    types = {iv.iter_type for iv in block.iter_vars}
    if IterVarType.CommReduce not in types or IterVarType.DataPar not in types:
        return []
    realize = A.get_block_realize(state, block_sref)
    ranges = A.loop_ranges(A.get_loops(block_sref))
    if any(not isinstance(r.extent, IntImm) for r in ranges.values()):
        return []
    res = detect_iter_map(realize.iter_values, ranges, realize.predicate, "surjective")
    if res.errors:
        return []
    marks: dict[str, TangledMark] = {}
    for iv, index in zip(block.iter_vars, res.indices):
        for split in index.args:
            _walk(split, iv, marks)
    out = []
    for entry in marks.values():
        if entry.aligned or not entry.spatial or not entry.reduce:
            continue
        for var, p, q in _pieces(entry.mark):
            if not _clean(p, q, entry.bounds):
                entry.places[var] = max(p, entry.places.get(var, p))
        if len(entry.places) > 1:
            out.append(entry)
    return out
