"""annotate_buffer_access (mirrors TVM's
``src/tir/schedule/primitive/annotate_buffer_access.cc``).

``annotate_buffer_access(block, i, "read"|"write", gen_new_ranges)`` replaces the block's
``i``-th read or write region by the ranges ``gen_new_ranges(*iter_vars)`` returns (per
dimension a ``(begin, end)`` pair or a single index) and records the index under the block
annotation ``explicit_read_region`` / ``explicit_write_region`` so that later passes keep it.
The ranges are stored as an IndexMap with two outputs per dimension (begin, end), as in TVM.
"""
from __future__ import annotations

import inspect
from typing import Any

from ...arith import Analyzer
from ...ir.expr import PrimExpr, Range
from ...ir.node import node
from ...tir import expr as E
from ...tir import op as tir_op
from ...tir import stmt as S
from ...tir.index_map import IndexMap
from ..trace import register_value_codec
from ._args import nth_access_buffer

_KEYS = {"read": "explicit_read_region", "write": "explicit_write_region"}


@node
class RangesMap(IndexMap):
    """An IndexMap whose outputs are ``begin0, end0, begin1, end1, ...`` (what TVM's
    ``annotate_buffer_access`` stores); prints as TVM's ``gen_new_ranges`` lambda."""

    __hash__ = IndexMap.__hash__


def ranges_map_from_func(fn: Any, iter_vars: list[E.Var]) -> RangesMap:
    """Call ``fn(*iter_vars)`` and flatten its ranges into a :class:`RangesMap` over fresh vars
    named like the iter vars (TVM's Python ``annotate_buffer_access``)."""
    params = [E.Var(v.name_hint, v.dtype) for v in iter_vars]
    spec = fn(*params)
    outs: list[PrimExpr] = []
    for item in spec if isinstance(spec, (list, tuple)) else [spec]:
        if isinstance(item, (list, tuple)):
            begin, end = item
        else:
            begin, end = item, tir_op.add(item, 1)
        outs += [tir_op.convert(begin), tir_op.convert(end)]
    return RangesMap(params, outs)


def _ranges_text(rmap: IndexMap) -> str:
    """TVM's ``IndexMap2GenNewRangesLambda``."""
    params = ", ".join(v.name_hint for v in rmap.initial_indices)
    outs = rmap.final_indices
    items = []
    for begin, end in zip(outs[0::2], outs[1::2]):
        items.append(f"({begin.script()}, {end.script()})")
    return f"lambda {params}: [{', '.join(items)}]"


def annotate_buffer_access_impl(block: S.Block, buffer_index: int, buf_type: str,
                                ranges: IndexMap) -> S.Block:
    """The block with its region replaced and the annotation recorded (TVM's
    ``AnnotateBufferAccess``).

    Raises:
        BufferIndexOutOfRangeError: for a bad ``buffer_index``;
        InvalidArgumentError: when the ranges do not have two outputs per buffer dimension, or
            ``buf_type`` is neither "read" nor "write".
    """
    from ..errors import InvalidArgumentError  # pylint: disable=import-outside-toplevel

    if buf_type not in _KEYS:
        raise InvalidArgumentError(block, reason=f"buf_type must be 'read' or 'write', got "
                                   f"{buf_type!r}")
    buffer = nth_access_buffer(block, buffer_index, buf_type)
    outs = ranges.map_indices([iv.var for iv in block.iter_vars])
    if len(outs) != 2 * len(buffer.shape):
        raise InvalidArgumentError(block, reason=f"gen_new_ranges gives {len(outs) // 2} "
                                   f"range(s) but buffer {buffer.name} has rank "
                                   f"{len(buffer.shape)}")
    ana = Analyzer()
    region = S.BufferRegion(buffer, tuple(Range.from_min_extent(b, ana.simplify(e - b))
                                          for b, e in zip(outs[0::2], outs[1::2])))
    field = "reads" if buf_type == "read" else "writes"
    regions = list(getattr(block, field))
    regions[buffer_index] = region
    anns = dict(block.annotations)
    key = _KEYS[buf_type]
    indices = list(anns.get(key, []))
    if buffer_index not in indices:
        indices.append(buffer_index)
    anns[key] = indices
    return block.with_changes(**{field: tuple(regions)}, annotations=anns)


def _normalize(sch: Any, args: dict) -> None:
    from ._args import as_block_rv, block_of  # pylint: disable=C0415

    args["block"] = as_block_rv(sch, args["block"])
    fn = args["gen_new_ranges"]
    if not isinstance(fn, IndexMap):
        block = block_of(sch, args["block"])
        args["gen_new_ranges"] = _checked_ranges(block, fn)


def _checked_ranges(block: S.Block, fn: Any) -> RangesMap:
    """``ranges_map_from_func`` of the block's iters; InvalidArgumentError (naming the block)
    when ``fn`` is not a function of as many arguments as the block has iters, or does not
    return a range (``(begin, end)``) or an index per dimension."""
    from ..errors import InvalidArgumentError  # pylint: disable=import-outside-toplevel

    n = len(block.iter_vars)
    try:
        inspect.signature(fn).bind(*range(n))
    except TypeError:
        raise InvalidArgumentError(block, reason=f"gen_new_ranges must be a function of the "
                                   f"block's {n} iter(s), got {fn!r}") from None
    except ValueError:  # a callable without a signature (a builtin): let the call decide
        pass
    try:
        return ranges_map_from_func(fn, [iv.var for iv in block.iter_vars])
    except (TypeError, ValueError) as exc:
        raise InvalidArgumentError(block, reason="gen_new_ranges must return one (begin, end) "
                                   f"pair or one index per buffer dimension: {exc}") from None


def _register() -> None:
    from ..schedule import primitive  # pylint: disable=import-outside-toplevel
    from ._args import block_of  # pylint: disable=C0415

    @primitive("AnnotateBufferAccess", normalize=_normalize)
    def annotate_buffer_access(sch: Any, block: Any, buffer_index: int, buf_type: str,
                               gen_new_ranges: Any) -> None:
        """Set the ``buffer_index``-th ``buf_type`` ("read"/"write") region of ``block`` to the
        ranges ``gen_new_ranges(*iter_vars)`` returns and mark it explicit
        (``Schedule.annotate_buffer_access``).

        Raises:
            ScheduleError: BufferIndexOutOfRangeError, InvalidArgumentError (also for a
                ``gen_new_ranges`` of the wrong arity or returning something else than ranges).
        """
        old = block_of(sch, block)
        new = annotate_buffer_access_impl(old, buffer_index, buf_type, gen_new_ranges)
        sch.state.replace(sch._block_sref(block), new, {old: new})  # pylint: disable=W0212


def _ranges_from_json(data: Any) -> RangesMap:
    from ..index_map_text import index_map_from_lambda  # pylint: disable=C0415

    imap = index_map_from_lambda(data[0], data[1])
    return RangesMap(imap.initial_indices, imap.final_indices)


def _ranges_to_json(rmap: IndexMap) -> Any:
    from ..index_map_text import index_map_to_lambda  # pylint: disable=C0415

    return [index_map_to_lambda(rmap), str(rmap.initial_indices[0].dtype)]


register_value_codec(RangesMap, _ranges_text, "ranges_map", _ranges_to_json, _ranges_from_json)
_register()
