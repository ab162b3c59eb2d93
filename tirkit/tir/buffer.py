"""Buffers: typed, shaped views of memory (mirrors ``tvm.tir.Buffer`` and ``decl_buffer``)."""
from __future__ import annotations

from enum import IntEnum
from typing import Any, Iterable, Sequence

from .. import _layers
from ..ir.dtype import DataType, dtype as _dtype
from ..ir.expr import DTypeField, ExprField, ExprLike, IntImm, PrimExpr, Range
from ..ir.node import Coerced, Node, TupleOf, def_field, ignored_field, node, coerced_field
from ..ir.structural import BUFFER_HANDLERS, register_structural
from ..ir.type import PointerType, PrimType
from .expr import BufferLoad, Var

DEFAULT_ALIGNMENT = 64  # bytes; TVM's runtime::kAllocAlignment


class BufferType(IntEnum):
    """How a buffer is indexed (mirrors TVM's ``BufferType``)."""

    DEFAULT = 1
    AUTO_BROADCAST = 2


#: tirkit.tir.op.convert once imported (imported late: tirkit.tir.op imports this module)
_CONVERT: list[Any] = []


def _load_convert() -> Any:
    from .op import convert  # pylint: disable=import-outside-toplevel

    _CONVERT.append(convert)
    return convert


def _exprs(values: Any) -> tuple[PrimExpr, ...]:
    if type(values) is tuple:  # the common case: expressions already (convert keeps them)
        for v in values:
            if not isinstance(v, PrimExpr):
                break
        else:
            return (*values,)  # (a new tuple, as the conversion below makes)
    convert = _CONVERT[0] if _CONVERT else _load_convert()
    if values is None:
        return ()
    if isinstance(values, (PrimExpr, int)):
        values = (values,)
    return tuple(convert(v) for v in values)


@node
class Buffer(Node):
    """A multi-dimensional view of memory (mirrors ``tvm.tir.Buffer``).

    Fields: ``data`` (a ``handle`` Var whose ``PointerType`` annotation carries the storage scope),
    ``dtype``, ``shape`` (PrimExprs, elements), ``strides`` (elements; empty means compact
    row-major), ``elem_offset`` (elements), ``name``, ``data_alignment`` (bytes, default 64),
    ``offset_factor`` (default 1), ``buffer_type``, ``axis_separators``.

    ``A[i, j]`` gives a ``BufferLoad``; ``A[0:4, j]`` (any slice) a ``BufferRegion``.
    Use :func:`decl_buffer` to make one with TVM's defaults.
    """

    data: Var = def_field()
    dtype: DTypeField
    shape: Coerced[tuple[PrimExpr, ...], Iterable[ExprLike] | None]
    strides: Coerced[tuple[PrimExpr, ...], Iterable[ExprLike] | None] = coerced_field(default=())
    elem_offset: ExprField = coerced_field(default_factory=lambda: IntImm("int32", 0))
    name: str = ignored_field(default="buffer")
    data_alignment: int = DEFAULT_ALIGNMENT
    offset_factor: int = 1
    buffer_type: Coerced[BufferType, BufferType | int] = coerced_field(default=BufferType.DEFAULT)
    axis_separators: TupleOf[int] = coerced_field(default=())

    def __post_init__(self) -> None:
        object.__setattr__(self, "dtype", _dtype(self.dtype))
        object.__setattr__(self, "shape", _exprs(self.shape))
        object.__setattr__(self, "strides", _exprs(self.strides))
        if not isinstance(self.elem_offset, PrimExpr):
            object.__setattr__(self, "elem_offset", _exprs(self.elem_offset)[0])
        if type(self.buffer_type) is not BufferType:
            object.__setattr__(self, "buffer_type", BufferType(self.buffer_type))
        object.__setattr__(self, "axis_separators", tuple(int(a) for a in self.axis_separators))
        if self.data_alignment <= 0:
            object.__setattr__(self, "data_alignment", DEFAULT_ALIGNMENT)
        if self.offset_factor == 0:
            object.__setattr__(self, "offset_factor", 1)
        if not isinstance(self.data, Var):
            raise TypeError(f"Buffer {self.name!r}: data must be a handle Var, got a "
                            f"{type(self.data).__name__} (bind the pointer expression to a "
                            "Var first)")
        if not self.data.dtype.is_handle():
            raise TypeError(f"Buffer {self.name!r}: data must be a handle Var, got {self.data.dtype}")

    def __hash__(self) -> int:
        return object.__hash__(self)

    def __repr__(self) -> str:
        return f"Buffer({self.name}, {self.dtype}, {list(self.shape)!r})"

    @property
    def ndim(self) -> int:
        """Number of dimensions."""
        return len(self.shape)

    def scope(self) -> str:
        """Storage scope of the data pointer (``Buffer.scope()``), ``"global"`` by default."""
        ann = self.data.type_annotation
        return ann.storage_scope if isinstance(ann, PointerType) else "global"

    def __iter__(self) -> Any:
        """Not iterable (``A[i]`` indexes): without this Python would iterate ``A[0], A[1], ...``
        through ``__getitem__`` without end (``x, y = A``)."""
        raise TypeError(f"buffer {self.name!r} is not iterable" if self.name else
                        "a buffer is not iterable")

    def __getitem__(self, indices: Any) -> Any:
        """``A[i, j]`` a BufferLoad; ``A[i, 0:4]`` a BufferRegion; a slice with a step
        (``A[0:4:1]``) a vector BufferLoad with a ``Ramp`` index (TVM's ``Buffer.__getitem__``).
        A list of indices counts as a tuple (``A[iters]`` with ``iters`` from ``T.grid(*A.shape)``).
        """
        indices = tuple(indices) if isinstance(indices, (tuple, list)) else (indices,)
        if any(isinstance(i, slice) and i.step is not None for i in indices):
            return BufferLoad(self, [self._ramp(k, i) for k, i in enumerate(indices)])
        if any(isinstance(i, slice) for i in indices):
            # tirkit.tir.stmt.BufferRegion (stmt.py imports this module)
            return _layers.get("tir.stmt").BufferRegion(self, [_slice_range(i) for i in indices])
        return BufferLoad(self, indices)

    def _ramp(self, axis: int, index: Any) -> Any:
        if not isinstance(index, slice):
            return index
        from .expr import (IntImm as _IntImm, Ramp,  # pylint: disable=import-outside-toplevel
                           scalable_lanes_factor)
        from .op import convert  # pylint: disable=import-outside-toplevel

        start = convert(0 if index.start is None else index.start)
        stop = self.shape[axis] if index.stop is None else index.stop
        step = convert(1 if index.step is None else index.step, start.dtype)
        analyzer = _layers.get("arith").Analyzer()
        lanes = analyzer.simplify((convert(stop) - start + step - 1) // step)
        if scalable_lanes_factor(lanes) is not None:  # A[i : i + 4 * T.vscale()]
            return Ramp(start, step, lanes)
        if not isinstance(lanes, _IntImm):
            raise ValueError("a vector slice needs a constant number of lanes")
        return start if lanes.value == 1 else Ramp(start, step, lanes.value)

    def vload(self, begin: Sequence[Any], dtype: str | None = None,
              predicate: Any = None) -> BufferLoad:
        """Load at ``begin`` (``Buffer.vload``); a vector ``dtype`` loads consecutive lanes;
        ``predicate`` (a bool vector of as many lanes) masks them."""
        from .op import convert  # pylint: disable=import-outside-toplevel
        from .expr import Ramp  # pylint: disable=import-outside-toplevel

        idx = list(_exprs(begin))
        t = _dtype(dtype) if dtype else self.dtype
        if t.lanes > self.dtype.lanes and convert(idx[-1]).dtype.lanes == 1:
            idx[-1] = Ramp(idx[-1], convert(1, idx[-1].dtype), t.lanes // self.dtype.lanes)
        return BufferLoad(self, idx, predicate)

    def vstore(self, begin: Sequence[Any], value: PrimExpr, predicate: Any = None) -> Any:
        """Store ``value`` at ``begin`` (``Buffer.vstore``), lanes masked by ``predicate``;
        returns a ``BufferStore``."""
        store = _layers.get("tir.stmt").BufferStore  # (stmt.py imports this module)
        return store(self, value, list(self.vload(begin, str(value.dtype)).indices),
                           predicate)

    def access_ptr(self, access_mask: str | int, ptr_type: str = "handle", content_lanes: int = 1,
                   offset: Any = 0, extent: Any = None) -> PrimExpr:
        """A ``tir.tvm_access_ptr`` call to this buffer's data (mirrors ``Buffer.access_ptr``).

        Args:
            access_mask: ``"r"``, ``"w"``, ``"rw"`` or the int mask (1 read, 2 write).
            ptr_type: dtype of the resulting pointer expression (``"handle"``).
            content_lanes: lanes of the pointee (``type_annotation`` is ``dtype x lanes``; the
                extent and element offset are divided by it, as TVM).
            offset: extra offset in elements.
            extent: number of elements; default the buffer's size minus ``offset``.

        Raises:
            ValueError: for an access mask with letters other than ``r``/``w``.
        """
        buffer_access_ptr = _layers.get("tir.op_intrin").buffer_access_ptr  # (it imports Buffer)
        return buffer_access_ptr(self, access_mask, ptr_type, content_lanes, offset, extent)

    def offset_of(self, indices: Sequence[Any]) -> list[PrimExpr]:
        """Flat element offsets of ``indices`` per axis group (``Buffer.offset_of``).

        Row-major over ``shape`` unless ``strides`` are given; with ``axis_separators`` there is
        one offset per group of axes.
        """
        idx = _exprs(indices)
        if len(idx) != self.ndim:
            raise ValueError(f"Buffer {self.name!r} has {self.ndim} dimension(s), "
                             f"got {len(idx)} index(es)")
        bounds = [0, *self.axis_separators, self.ndim]
        return [self._flat(idx, lo, hi) for lo, hi in zip(bounds, bounds[1:])]

    def _flat(self, idx: tuple[PrimExpr, ...], lo: int, hi: int) -> PrimExpr:
        offset: Any = 0
        if self.strides:
            for i in range(lo, hi):
                offset = idx[i] * self.strides[i] + offset
            return _exprs(offset)[0] if isinstance(offset, int) else offset
        for i in range(lo, hi):
            offset = offset * self.shape[i] + idx[i] if i > lo else idx[i]
        return _exprs(offset)[0] if isinstance(offset, int) else offset

    def get_flattened_buffer(self) -> "Buffer":
        """The 1-D (per axis group) buffer over the same data (``Buffer.get_flattened_buffer``)."""
        from .op import convert  # pylint: disable=import-outside-toplevel

        bounds = [0, *self.axis_separators, self.ndim]
        shape = []
        for lo, hi in zip(bounds, bounds[1:]):
            if self.strides and hi > lo:
                ext = self.strides[lo] * self.shape[lo]
            else:
                ext = convert(1, self.shape[0].dtype if self.shape else None)
                for s in self.shape[lo:hi]:
                    ext = ext * s
            shape.append(ext)
        seps = tuple(range(1, len(bounds) - 1))
        return self.with_changes(shape=tuple(shape), strides=(), axis_separators=seps)


register_structural(Buffer, *BUFFER_HANDLERS)  # a buffer is a definition wherever it is met


def _slice_range(index: Any) -> Range:
    if isinstance(index, slice):
        if index.step not in (None, 1):
            raise ValueError("Buffer slices support step 1 only")
        rng = Range(index.start if index.start is not None else 0, index.stop)
        # TVM's Buffer.__getitem__: ``analyzer.simplify(stop - start)``
        analyzer = _layers.get("arith").Analyzer()
        return Range.from_min_extent(rng.min, analyzer.simplify(rng.extent))
    return Range.from_min_extent(index, 1)


def decl_buffer(shape: Any, dtype: str | DataType = "float32", name: str = "buffer",
                data: Var | None = None, strides: Any = None, elem_offset: Any = None,
                scope: str = "", data_alignment: int = -1, offset_factor: int = 0,
                buffer_type: str = "", axis_separators: Any = None, span: Any = None) -> Buffer:
    """Declare a new buffer (mirrors ``tvm.tir.decl_buffer``).

    Args:
        shape: extents in elements (ints or PrimExprs).
        dtype: element dtype string, e.g. ``"float32"``.
        name: buffer name; the data pointer var gets the same name.
        data: the data pointer; default a new ``handle`` Var annotated
            ``PointerType(PrimType(dtype), scope)``.
        strides: per-axis strides in elements; ``None``/empty means compact row-major.
        elem_offset: offset of the first element in elements; default 0, or a fresh
            ``{name}_elem_offset`` Var when ``offset_factor != 0`` (as TVM).
        scope: storage scope (``""`` = ``"global"``, ``"shared"``, ``"local"``...).
        data_alignment: bytes; ``-1`` means 64.
        offset_factor: ``elem_offset`` is a multiple of it; 0 means 1.
        buffer_type: ``""`` or ``"auto_broadcast"``.
        axis_separators: axis indices starting new flattened dimensions.

    Raises:
        ValueError: on a bad dtype string or buffer_type.
        TypeError: ``scope`` is not a string.
    """
    from .op import convert  # pylint: disable=import-outside-toplevel

    if not isinstance(scope, str):
        raise TypeError(f"the storage scope must be a string, got '{scope}' "
                        f"({type(scope).__name__})")
    t = _dtype(dtype)
    shape_t = _exprs(shape)
    index_dtype = shape_t[0].dtype if shape_t else _dtype("int32")
    if data is None:
        data = Var(name, PointerType(PrimType(t), scope or "global"))
    if elem_offset is None:
        elem_offset = (Var(f"{name}_elem_offset", index_dtype) if offset_factor != 0
                       else convert(0, index_dtype))
    if buffer_type not in ("", "default", "auto_broadcast"):
        raise ValueError(f"buffer_type must be '' or 'auto_broadcast', got {buffer_type!r}")
    btype = BufferType.AUTO_BROADCAST if buffer_type == "auto_broadcast" else BufferType.DEFAULT
    return Buffer(data, t, shape_t, _exprs(strides), convert(elem_offset), name, data_alignment,
                  offset_factor, btype, tuple(axis_separators or ()), span=span)
