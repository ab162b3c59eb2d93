"""The runtime of compiled kernels (mirrors ``tvm.runtime``): the JIT engine, packed calls on
NumPy/DLPack arrays (in place, zero copy), runtime Modules and an aligned allocator
(:func:`empty`, :func:`array`)."""
from .ndarray import ALLOC_ALIGNMENT, array, empty

__all__ = ["ALLOC_ALIGNMENT", "array", "empty"]
