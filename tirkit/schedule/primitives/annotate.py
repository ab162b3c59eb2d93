"""annotate, unannotate, storage_align, set_scope, set_axis_separator, unsafe_set_dtype (mirrors
``src/tir/schedule/primitive/annotate.cc`` and ``block_annotate.cc``)."""
from __future__ import annotations

import re
from typing import Any, Sequence

from ...ir.dtype import dtype as _dtype
from ...ir.type import PointerType, PrimType
from ...tir import op
from ...tir.expr import BufferLoad, Var
from ...tir.stmt import Block, BufferStore
from ...tir.stmt_functor import ir_transform
from .. import errors as err
from ..schedule import Schedule, primitive
from ..schedule import _is_int  # an int, a NumPy int or an IntImm, not a bool
from ..transform import block_reuse, replace_objects
from ._args import nth_access_buffer

_SCOPE = re.compile(r"^(global|shared|shared\.dyn|local|warp|wmma\.[a-z_]+|m16n8k8\.[a-z_]+|"
                    r"global\.texture[a-z0-9_-]*|texture|metal\.[a-z_]+)$")


def _value(sch: Schedule, value: Any) -> Any:
    if isinstance(value, Var):
        return sch._expr_value(value)  # pylint: disable=protected-access
    return value


def _check_ann_value(stmt: Any, value: Any, where: str) -> None:
    """AnnotationTypeError unless ``value`` is what TVM's ``Schedule.annotate`` takes (and a
    trace can record): None, a bool, int, float, str, PrimExpr, or a list/tuple of those or a
    dict with str keys, nested."""
    from ...ir.expr import PrimExpr  # pylint: disable=import-outside-toplevel
    if value is None or isinstance(value, (bool, int, float, str, PrimExpr)):
        return
    if isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            _check_ann_value(stmt, item, f"{where}[{i}]")
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise err.AnnotationTypeError(stmt, reason=f"{where} has a key {key!r} of type "
                                              f"{type(key).__name__}; dict keys must be str")
            _check_ann_value(stmt, item, f"{where}[{key!r}]")
        return
    raise err.AnnotationTypeError(stmt, reason=f"{where} has type {type(value).__name__}; expected "
                                  "a str, int, float, bool, ExprRV, or a list or str-keyed dict "
                                  "of those")


@primitive("Annotate", attrs=("ann_key",), checks_own=("ann_key",))  # AnnotationTypeError
def annotate(sch: Schedule, block_or_loop: Any, ann_key: str, ann_val: Any) -> None:
    """Set annotation ``ann_key`` to ``ann_val`` (str, int, float, bool, ExprRV, or a list or
    str-keyed dict of those) on a block or loop (``Schedule.annotate``).

    Raises:
        ScheduleError: ``AnnotationTypeError`` (also a Python ``TypeError``, as TVM's FFI
            raises) for a key that is not a str or a value of another type.
    """
    sref = sch._sref(block_or_loop)  # pylint: disable=protected-access
    stmt = sref.stmt
    if not isinstance(ann_key, str):
        raise err.AnnotationTypeError(stmt, reason=f"the annotation key {ann_key!r} has type "
                                      f"{type(ann_key).__name__}, not str")
    _check_ann_value(stmt, ann_val, "the annotation value")
    anns = {**stmt.annotations, ann_key: _value(sch, ann_val)}
    sch.state.replace(sref, stmt.with_changes(annotations=anns))


@primitive("Unannotate", attrs=("ann_key",))
def unannotate(sch: Schedule, block_or_loop: Any, ann_key: str) -> None:
    """Remove annotation ``ann_key`` from a block or loop (``Schedule.unannotate``).

    Raises:
        ScheduleError: ``IndexError_`` (also a Python ``IndexError``, TVM's "IndexError: Cannot
            find annotation key") when the block or loop has no annotation ``ann_key``.
    """
    sref = sch._sref(block_or_loop)  # pylint: disable=protected-access
    stmt = sref.stmt
    if ann_key not in stmt.annotations:
        raise err.IndexError_(stmt, reason=f"Cannot find annotation key {ann_key!r} (it has "
                              f"{sorted(stmt.annotations) or 'no annotations'})")
    anns = {k: v for k, v in stmt.annotations.items() if k != ann_key}
    sch.state.replace(sref, stmt.with_changes(annotations=anns))


def _defining_site(block_sref: Any, buffer: Any) -> tuple[Any, bool]:
    """``(sref, is_alloc)`` of the block above ``block_sref`` that allocates (``alloc_buffers``)
    or matches (``match_buffers``) ``buffer``; ``(None, False)`` for a function parameter
    (TVM's ``GetBufferDefiningSite``)."""
    for s in (block_sref, *block_sref.ancestors()):
        if not s.is_block:
            continue
        if any(b is buffer for b in s.stmt.alloc_buffers):
            return s, True
        if any(m.buffer is buffer for m in s.stmt.match_buffers):
            return s, False
    return None, False


def _alloc_site(sch: Schedule, block_sref: Any, buffer: Any) -> Any:
    """The sref of the block allocating ``buffer``; NonAllocatedBufferError for a function
    parameter or a ``match_buffer`` view (TVM's ``CheckAndGetBufferAllocationSite``)."""
    del sch
    site, is_alloc = _defining_site(block_sref, buffer)
    if site is None or not is_alloc:
        raise err.NonAllocatedBufferError(
            block_sref.stmt, reason=f'buffer "{buffer.name}" is not allocated by a block: it is '
            "a function parameter or defined by match_buffer, so it cannot be changed")
    return site


def _with_views(stmt: Any, old: Any, new: Any, view: Any) -> dict[int, Any]:
    """``{id(old): new}`` plus, for every ``match_buffer`` view of ``old`` (transitively), the
    view rebuilt by ``view(view_buffer, new_source)`` (TVM's ``VisitMatchBufferRegion`` of the
    scope / axis-separator mutators)."""
    from ..transform import blocks_in  # pylint: disable=import-outside-toplevel
    matches = [m for b in blocks_in(stmt) for m in b.match_buffers]
    mapping = {id(old): new}
    changed = True
    while changed:
        changed = False
        for m in matches:
            if id(m.source.buffer) in mapping and id(m.buffer) not in mapping:
                mapping[id(m.buffer)] = view(m.buffer, mapping[id(m.source.buffer)])
                changed = True
    return mapping


def _swap_buffer(sch: Schedule, site: Any, old: Any, new: Any, view: Any = None) -> None:
    stmt = site.stmt
    mapping = _with_views(stmt, old, new, view) if view is not None else {id(old): new}
    out = replace_objects(stmt, mapping)
    sch.state.replace(site, out, block_reuse(stmt, out))


_ALIGN_KEY = "buffer_dim_align"


def _align_entries(block: Block) -> list[list[int]]:
    """The block's ``buffer_dim_align`` annotation as 4-int lists;
    StorageAlignInvalidAnnotationError when it is not a list of 4-int tuples."""
    value = block.annotations.get(_ALIGN_KEY)
    if value is None:
        return []
    ok = isinstance(value, (list, tuple)) and all(
        isinstance(t, (list, tuple)) and len(t) == 4 and all(_is_int(x) for x in t)
        for t in value)
    if not ok:
        raise err.StorageAlignInvalidAnnotationError(
            block, reason=f"its {_ALIGN_KEY} annotation is {value!r}; an array of 4-integer "
            "tuples (buffer_index, axis, factor, offset) is expected")
    return [[int(getattr(x, "value", x)) for x in t] for t in value]




@primitive("StorageAlign", attrs=("buffer_index", "axis", "factor", "offset"))
def storage_align(sch: Schedule, block: Any, buffer_index: int, axis: int, factor: int,
                  offset: int) -> None:
    """Ask lowering to pad the stride of ``axis`` of the block's ``buffer_index``-th written buffer
    so that ``stride % factor == offset`` (``Schedule.storage_align``; block annotation
    ``buffer_dim_align``, an existing entry for the same buffer and axis is updated in place).

    Raises:
        ScheduleError: ``BufferIndexOutOfRangeError``, ``StorageAlignInvalidFactorError``
            (``factor <= 0``), ``StorageAlignAxisOutOfRangeError`` (``axis`` outside
            ``[-ndim, ndim)``), ``NonAllocatedBufferError`` (a parameter or match_buffer view),
            ``StorageAlignInvalidAnnotationError`` (a malformed existing annotation).
    """
    sref = sch._block_sref(block)  # pylint: disable=protected-access
    buf = nth_access_buffer(sref.stmt, buffer_index, "write")
    if factor <= 0:
        raise err.StorageAlignInvalidFactorError(
            sref.stmt, reason=f"the factor of storage_align must be positive, got {factor}")
    ndim = len(buf.shape)
    if not -ndim <= axis < ndim:
        raise err.StorageAlignAxisOutOfRangeError(
            sref.stmt, reason=f'axis {axis} is out of range [{-ndim}, {ndim}) for buffer '
            f'"{buf.name}" of rank {ndim}')
    _alloc_site(sch, sref, buf)
    stmt = sref.stmt
    entries = _align_entries(stmt)
    entry = [buffer_index, axis % ndim, factor, offset]
    pos = next((i for i, x in enumerate(entries) if x[:2] == entry[:2]), len(entries))
    entries[pos:pos + 1] = [entry]
    sch.state.replace(sref, stmt.with_changes(
        annotations={**stmt.annotations, _ALIGN_KEY: entries}))


def _scoped(buf: Any, scope: str) -> Any:
    """``buf`` in storage ``scope``, renamed ``<name>_<scope>`` (TVM's ``WithScope``)."""
    data = Var(f"{buf.data.name_hint}_{scope}", PointerType(PrimType(buf.dtype), scope))
    return buf.with_changes(data=data, name=f"{buf.name}_{scope}")


def _write_index(sch: Schedule, args: dict) -> None:
    from ._args import as_block_rv, normalize_buffer  # pylint: disable=C0415  # (cycle)
    args["block"] = as_block_rv(sch, args["block"])
    if not isinstance(args["buffer_index"], int):
        args["buffer_index"] = normalize_buffer(sch, args["block"], args["buffer_index"],
                                                "write")[1]


@primitive("SetScope", attrs=("buffer_index", "storage_scope"), normalize=_write_index)
def set_scope(sch: Schedule, block: Any, buffer_index: Any, storage_scope: str) -> None:
    """Move the block's ``buffer_index``-th written buffer (an int, a buffer name or a Buffer)
    to ``storage_scope`` (``"shared"``, ``"local"``...); the buffer is renamed
    ``<name>_<scope>`` and its ``match_buffer`` views follow (``Schedule.set_scope``).

    Raises:
        ScheduleError: ``BufferIndexOutOfRangeError``, ``InvalidScopeError``,
            ``NonAllocatedBufferError`` (a parameter or match_buffer view).
    """
    sref = sch._block_sref(block)  # pylint: disable=protected-access
    buf = nth_access_buffer(sref.stmt, buffer_index, "write")
    if buf.scope() == storage_scope:
        return
    if not isinstance(storage_scope, str) or not _SCOPE.match(storage_scope):
        raise err.InvalidScopeError(
            sref.stmt, reason=f"invalid storage scope {storage_scope!r} for buffer "
            f'"{buf.name}" written by block "{sref.stmt.name_hint}"')
    site = _alloc_site(sch, sref, buf)
    _swap_buffer(sch, site, buf, _scoped(buf, storage_scope),
                 lambda view, src: _scoped(view, src.scope()))


def _buffer_arg(sch: Schedule, args: dict) -> None:
    from ._args import as_block_rv, normalize_buffer  # pylint: disable=C0415  # (cycle)
    args["block"] = as_block_rv(sch, args["block"])
    args["buffer"] = normalize_buffer(sch, args["block"], args["buffer"])
    # plain ints in the trace; anything else (a float, a bool, a string) is left for
    # _check_separators to refuse by name rather than silently converted
    args["axis_separators"] = [int(getattr(a, "value", a)) if _is_int(a) else a
                               for a in args["axis_separators"] or []]


def _separated_view(view: Any, src: Any) -> Any:
    if len(view.shape) == len(src.shape):
        return view.with_changes(axis_separators=src.axis_separators)
    return view.with_changes(axis_separators=(0,) * len(src.axis_separators))


@primitive("SetAxisSeparator", attrs=("buffer", "axis_separators"), normalize=_buffer_arg)
def set_axis_separator(sch: Schedule, block: Any, buffer: Any,
                       axis_separators: Sequence[int] | None) -> None:
    """Set the axis separators of a buffer the block accesses: ``buffer`` is a
    ``("read"|"write", index)`` pair, a buffer name or a Buffer. An allocated buffer, its
    ``match_buffer`` views and a function parameter (``buffer_map``) may all be changed
    (``Schedule.set_axis_separator``).

    Raises:
        ScheduleError: ``BufferIndexOutOfRangeError``, ``InvalidArgumentError`` (a buffer the
            block does not access), ``BufferIsSubregionError`` (a match_buffer view),
            ``AxisSeparatorError`` (separators outside ``[0, ndim]`` or decreasing).
    """
    kind, index = buffer
    sref = sch._block_sref(block)  # pylint: disable=protected-access
    buf = nth_access_buffer(sref.stmt, index, kind)
    _check_separators(sref.stmt, buf, axis_separators)
    site, is_alloc = _defining_site(sref, buf)
    if site is not None and not is_alloc:
        from .cache_layout_errors import BufferIsSubregionError  # pylint: disable=C0415
        raise BufferIsSubregionError(
            sref.stmt, reason=f'buffer "{buf.name}" accessed by block "{sref.stmt.name_hint}" '
            "is defined by match_buffer; set the separators of the buffer it views")
    new = buf.with_changes(axis_separators=tuple(axis_separators or ()))
    if site is not None:
        _swap_buffer(sch, site, buf, new, _separated_view)
        return
    from .layout_transformation import _replace_param_buffer  # pylint: disable=C0415
    root = sch.state.roots[sch.state.func_of(sref)]
    _swap_buffer(sch, root, buf, new, _separated_view)
    _replace_param_buffer(sch, block, buf, new)


def _check_separators(block: Any, buf: Any, seps: Sequence[int] | None) -> None:
    """AxisSeparatorError unless ``seps`` are integers in ``[0, ndim]`` in non-decreasing order
    (each one starts a new flattened dimension: ``[0, *seps, ndim]`` bound the axis groups)."""
    seps = list(seps or ())
    ndim = len(buf.shape)
    ok = all(_is_int(s) for s in seps)
    values = [int(getattr(s, "value", s)) for s in seps] if ok else []
    if not ok or any(not 0 <= v <= ndim for v in values) or values != sorted(values):
        raise err.AxisSeparatorError(
            block, reason=f"axis_separators {seps!r} of buffer \"{buf.name}\" (rank {ndim}) "
            f"must be integers in [0, {ndim}] in non-decreasing order")


@primitive("UnsafeSetDType", attrs=("buffer_index", "dtype"))
def unsafe_set_dtype(sch: Schedule, block: Any, buffer_index: int, dtype: str) -> None:
    """Change the dtype of the block's ``buffer_index``-th written (intermediate) buffer; stores
    cast their value to it and loads cast back (``Schedule.unsafe_set_dtype``: no check that
    precision suffices).

    Raises:
        ScheduleError: ``BufferIndexOutOfRangeError``, ``NonAllocatedBufferError``,
            ``DTypeError`` (an unknown dtype, a vector or a handle).
    """
    sref = sch._block_sref(block)  # pylint: disable=protected-access
    buf = nth_access_buffer(sref.stmt, buffer_index, "write")
    try:
        new_dtype = _dtype(dtype)
    except (ValueError, TypeError) as exc:
        raise err.DTypeError(sref.stmt, reason=str(exc)) from None
    if new_dtype.lanes != 1 or new_dtype.is_handle() or new_dtype.is_void():
        raise err.DTypeError(sref.stmt, reason=f"dtype {dtype!r} for buffer \"{buf.name}\": "
                             "unsafe_set_dtype needs a scalar numeric dtype (its stores cast "
                             "the value to it)")
    site = _alloc_site(sch, sref, buf)
    if new_dtype == buf.dtype:
        return
    data = Var(buf.data.name_hint, PointerType(PrimType(new_dtype), buf.scope()))
    new_buf = buf.with_changes(dtype=new_dtype, data=data)

    def post(n: Any) -> Any:
        if isinstance(n, BufferStore) and n.buffer is buf:
            return BufferStore(new_buf, op.cast(new_dtype, n.value), n.indices, n.predicate)
        if isinstance(n, BufferLoad) and n.buffer is buf:
            return op.cast(buf.dtype, BufferLoad(new_buf, n.indices))
        return None
    stmt = site.stmt
    body = ir_transform(stmt, None, post, ["tir.BufferStore", "tir.BufferLoad"])
    out = replace_objects(body, {id(buf): new_buf})
    sch.state.replace(site, out, block_reuse(stmt, out))
