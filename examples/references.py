"""The TVMScript kernels of examples/, each with random inputs and a NumPy reference: one table
shared by the tests (tests/compiler/test_examples.py), the benchmarks (bench/bench_compiler.py)
and ``make demo``.

``Kernel.inputs(rng)`` returns the argument list (outputs pre-filled with NaN or junk so that a
kernel that skips an element is caught); ``Kernel.reference(args)`` returns ``(index, expected)``
for the output argument, computed by NumPy in float64 (or exactly for integers) from the inputs
(call it before the kernel overwrites an in/out argument); ``numpy_op(args)`` is the same
operation as NumPy would do it in float32, for timing.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import numpy as np

HERE = Path(__file__).resolve().parent


def aligned(arr: np.ndarray, align: int = 64) -> np.ndarray:
    """A copy of ``arr`` whose data starts on an ``align``-byte boundary, as TVM's own arrays
    (``tvm.nd.array``) do (``tirkit.compiler.runtime.array`` does the same); compiled kernels
    take any NumPy array in place, aligned or not."""
    raw = np.empty(arr.nbytes + align, dtype=np.uint8)
    start = (-raw.ctypes.data) % align
    out = raw[start:start + arr.nbytes].view(arr.dtype).reshape(arr.shape)
    out[...] = arr
    return out


def f32(rng: np.random.Generator, *shape: int) -> np.ndarray:
    """Uniform float32 in [-1, 1), 64-byte aligned."""
    return aligned(rng.uniform(-1, 1, size=shape).astype(np.float32))


def i8(rng: np.random.Generator, *shape: int) -> np.ndarray:
    """Uniform int8 over its whole range, 64-byte aligned."""
    return aligned(rng.integers(-128, 128, size=shape).astype(np.int8))


def nan32(*shape: int) -> np.ndarray:
    """An output buffer full of NaN, 64-byte aligned."""
    return aligned(np.full(shape, np.nan, np.float32))


def softmax64(a: np.ndarray) -> np.ndarray:
    """Row softmax in float64."""
    a = a.astype(np.float64)
    e = np.exp(a - a.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def softmax32(a: np.ndarray) -> np.ndarray:
    """Row softmax as NumPy computes it in float32."""
    e = np.exp(a - a.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def conv2d64(data: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    """NCHW conv2d, stride 1, padding 1, in float64."""
    pad = np.pad(data.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1)))
    win = np.lib.stride_tricks.sliding_window_view(pad, kernel.shape[2:], axis=(2, 3))
    return np.einsum("ncyxij,fcij->nfyx", win, kernel.astype(np.float64), optimize=True)


def conv2d32(data: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    """The same convolution in float32 (im2col + one matrix product)."""
    pad = np.pad(data, ((0, 0), (0, 0), (1, 1), (1, 1)))
    win = np.lib.stride_tricks.sliding_window_view(pad, kernel.shape[2:], axis=(2, 3))
    cols = win[0].transpose(1, 2, 0, 3, 4).reshape(win.shape[2] * win.shape[3], -1)
    return (kernel.reshape(kernel.shape[0], -1) @ cols.T).reshape(1, kernel.shape[0],
                                                                  *win.shape[2:4])


@dataclass(frozen=True)
class Kernel:
    """One example kernel: its file and function, inputs, reference, NumPy equivalent, work."""

    file: str
    entry: str
    inputs: Callable[[np.random.Generator], list[Any]]
    reference: Callable[[list[Any]], tuple[int, np.ndarray]]
    numpy_op: Callable[[list[Any]], Any]
    flops: int  # arithmetic operations of one call (0: memory-bound, report GB/s)

    @property
    def path(self) -> Path:
        """The TVMScript file."""
        return HERE / self.file


N_ADD = 4194304

KERNELS: list[Kernel] = [
    Kernel("matmul.py", "main",
           lambda r: [f32(r, 128, 128), f32(r, 128, 128), nan32(128, 128)],
           lambda a: (2, a[0].astype(np.float64) @ a[1]),
           lambda a: a[0] @ a[1], 2 * 128 ** 3),
    Kernel("vector_add.py", "vector_add",
           lambda r: [f32(r, N_ADD), f32(r, N_ADD), nan32(N_ADD)],
           lambda a: (2, a[0] + a[1]),
           lambda a: np.add(a[0], a[1], out=a[2]), 0),
    Kernel("matmul_scheduled.py", "matmul_scheduled",
           lambda r: [f32(r, 1024, 1024), f32(r, 1024, 1024), nan32(1024, 1024)],
           lambda a: (2, a[0].astype(np.float64) @ a[1]),
           lambda a: np.matmul(a[0], a[1], out=a[2]), 2 * 1024 ** 3),
    Kernel("matmul_packed.py", "matmul_packed",
           lambda r: [f32(r, 1024, 1024), f32(r, 1024, 1024), nan32(1024, 1024)],
           lambda a: (2, a[0].astype(np.float64) @ a[1]),
           lambda a: np.matmul(a[0], a[1], out=a[2]), 2 * 1024 ** 3),
    Kernel("softmax.py", "softmax",
           lambda r: [aligned(4 * f32(r, 4096, 1024)), nan32(4096, 1024)],
           lambda a: (1, softmax64(a[0])),
           lambda a: softmax32(a[0]), 7 * 4096 * 1024),
    Kernel("conv2d_nchw.py", "conv2d_nchw",
           lambda r: [f32(r, 1, 64, 56, 56), f32(r, 64, 64, 3, 3), nan32(1, 64, 56, 56)],
           lambda a: (2, conv2d64(a[0], a[1])),
           lambda a: conv2d32(a[0], a[1]), 2 * 64 * 56 * 56 * 64 * 9),
    Kernel("rowsum.py", "rowsum",
           lambda r: [f32(r, 4096, 4096), nan32(4096)],
           lambda a: (1, a[0].astype(np.float64).sum(axis=1)),
           lambda a: a[0].sum(axis=1), 0),
    Kernel("int8_matmul.py", "int8_matmul",
           lambda r: [i8(r, 512, 512), i8(r, 512, 512), aligned(np.ones((512, 512), np.int32))],
           lambda a: (2, a[0].astype(np.int32) @ a[1].astype(np.int32)),
           lambda a: a[0].astype(np.int32) @ a[1].astype(np.int32), 2 * 512 ** 3),
    Kernel("symbolic.py", "axpy",
           lambda r: [1.5, f32(r, 1000003), f32(r, 1000003)],
           lambda a: (2, a[0] * a[1].astype(np.float64) + a[2]),
           lambda a: np.add(np.float32(a[0]) * a[1], a[2], out=a[2]), 2 * 1000003),
]

BY_ENTRY = {k.entry: k for k in KERNELS}


def max_error(out: np.ndarray, expected: np.ndarray) -> float:
    """Largest absolute difference relative to the largest expected magnitude (0 = exact)."""
    if out.dtype.kind in "iub":
        return float(np.max(np.abs(out.astype(np.int64) - expected))) if out.size else 0.0
    scale = float(np.max(np.abs(expected))) or 1.0
    return float(np.max(np.abs(out.astype(np.float64) - expected))) / scale


def assert_matches(out: np.ndarray, expected: np.ndarray) -> None:
    """Exact for integers; for floats 1e-5 relative, with an absolute floor of 1e-5 of the
    largest magnitude (sums of many terms that cancel to near zero)."""
    if out.dtype.kind in "iub":
        np.testing.assert_array_equal(out, expected)
        return
    expected = np.asarray(expected, np.float64)
    np.testing.assert_allclose(out, expected, rtol=1e-5,
                               atol=1e-5 * float(np.max(np.abs(expected))))
