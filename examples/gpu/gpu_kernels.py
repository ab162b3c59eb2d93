"""The GPU examples of examples/gpu/ with inputs and NumPy references: one table shared by the
tests (tests/gpu/test_gpu_examples.py) and ``bench/gpu_check.py``.

``GpuKernel.inputs(rng)`` returns the argument list (outputs pre-filled with NaN);
``GpuKernel.reference(args)`` the expected output (computed in float64) and its index in the
argument list; ``flops`` the floating-point operations of one call.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import numpy as np

HERE = Path(__file__).resolve().parent
VEC_N, MM_N, RR_M, RR_K, SM_M, SM_N = 1 << 20, 1024, 4096, 1024, 1024, 1024


@dataclass(frozen=True)
class GpuKernel:
    """One example: its file, entry, argument maker, reference and flop count."""

    file: str
    entry: str
    inputs: Callable[[np.random.Generator], list[Any]]
    reference: Callable[[list[Any]], tuple[int, np.ndarray]]
    flops: int
    rtol: float = 1e-5
    atol: float = 1e-6

    @property
    def path(self) -> Path:
        """The example's file."""
        return HERE / self.file


def _rand(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return rng.uniform(-1, 1, size=shape).astype(np.float32)


def _nan(*shape: int) -> np.ndarray:
    return np.full(shape, np.nan, np.float32)


def _softmax(a: np.ndarray) -> np.ndarray:
    a = a.astype(np.float64)
    e = np.exp(a - a.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


GPU_KERNELS = [
    GpuKernel("vector_add.py", "vector_add",
              lambda r: [_rand(r, VEC_N), _rand(r, VEC_N), _nan(VEC_N), VEC_N],
              lambda a: (2, a[0].astype(np.float64) + a[1]), VEC_N),
    GpuKernel("matmul_shared.py", "matmul_shared",
              lambda r: [_rand(r, MM_N, MM_N), _rand(r, MM_N, MM_N), _nan(MM_N, MM_N)],
              lambda a: (2, a[0].astype(np.float64) @ a[1]), 2 * MM_N ** 3, rtol=1e-4, atol=1e-3),
    GpuKernel("matmul_register_tiled.py", "matmul_register_tiled",
              lambda r: [_rand(r, MM_N, MM_N), _rand(r, MM_N, MM_N), _nan(MM_N, MM_N)],
              lambda a: (2, a[0].astype(np.float64) @ a[1]), 2 * MM_N ** 3, rtol=1e-4, atol=1e-3),
    GpuKernel("row_reduce_warp.py", "row_reduce_warp",
              lambda r: [_rand(r, RR_M, RR_K), _nan(RR_M)],
              lambda a: (1, a[0].astype(np.float64).sum(axis=1)), RR_M * RR_K, rtol=1e-4, atol=1e-3),
    GpuKernel("softmax.py", "softmax",
              lambda r: [_rand(r, SM_M, SM_N), _nan(SM_M, SM_N)],
              lambda a: (1, _softmax(a[0])), 5 * SM_M * SM_N),
]
