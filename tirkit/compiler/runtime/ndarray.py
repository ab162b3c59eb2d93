"""Aligned NumPy arrays (mirrors ``tvm.runtime.empty`` / ``tvm.nd.array``'s 64-byte allocation).

Compiled kernels take ordinary NumPy arrays in place and assume only element alignment of them;
these helpers give the 64-byte alignment TVM's allocator guarantees (whole cache lines, no vector
access split over two lines) to callers who want it.
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

__all__ = ["ALLOC_ALIGNMENT", "empty", "array"]

#: bytes; ``tvm::runtime::kAllocAlignment``
ALLOC_ALIGNMENT = 64


def empty(shape: "int | Sequence[int]", dtype: Any = "float32",
          align: int = ALLOC_ALIGNMENT) -> np.ndarray:
    """An uninitialised C-contiguous NumPy array of ``shape`` and ``dtype`` whose first element
    is ``align``-byte aligned (default 64), mirroring ``tvm.runtime.empty(shape, dtype)``.

    Raises:
        ValueError: for a negative extent or an ``align`` that is not a positive power of two.
    """
    if align <= 0 or align & (align - 1):
        raise ValueError(f"expected align to be a positive power of two, got {align}")
    dims = (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(int(d) for d in shape)
    if any(d < 0 for d in dims):
        raise ValueError(f"expected non-negative extents, got shape {dims}")
    dt = np.dtype(dtype)
    nbytes = int(np.prod(dims, dtype=np.int64)) * dt.itemsize
    raw = np.empty(nbytes + align, dtype=np.uint8)
    start = (-raw.ctypes.data) % align
    return raw[start:start + nbytes].view(dt).reshape(dims)


def array(data: Any, dtype: Any = None, align: int = ALLOC_ALIGNMENT) -> np.ndarray:
    """A 64-byte-aligned C-contiguous copy of ``data`` (``tvm.nd.array`` for NumPy input).

    Raises:
        ValueError: as :func:`empty`.
    """
    src = np.asarray(data, dtype=dtype)
    out = empty(src.shape, src.dtype, align)
    np.copyto(out, src)
    return out
