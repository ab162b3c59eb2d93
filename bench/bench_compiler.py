"""Benchmarks of the compiler: compile time of every example kernel (parse + lower + LLVM
codegen/optimisation + JIT), run time of the compiled kernels next to NumPy doing the same
operation in the same run, and the speed-up of the parallel loops (all threads vs one).

Items are kernels compiled, floating-point (or integer) operations, or bytes moved, so the
throughput column reads compiles/s, FLOP/s or B/s; each ``run_X`` row has a ``numpy_X`` row.
"""
from __future__ import annotations

import ctypes
import ctypes.util
from functools import lru_cache

import numpy as np
from references import BY_ENTRY, KERNELS, Kernel
from registry import bench

from tirkit.compiler import build
from tirkit.compiler.transform import as_module
from tirkit.lang import from_source


def _load(kernel: Kernel):
    return as_module(from_source(kernel.path.read_text(), str(kernel.path)))


@lru_cache(maxsize=None)
def _built(entry: str, opt_level: int = 3):
    kernel = BY_ENTRY[entry]
    return build(_load(kernel), opt_level=opt_level)[entry]


def _compile_setup(kernel: Kernel):
    def setup():
        return 1, lambda: build(_load(kernel), opt_level=3)
    return setup


for _k in KERNELS:
    bench(f"compile_{_k.entry}", "compiles")(_compile_setup(_k))


def _work(kernel: Kernel, args) -> tuple[int, str]:
    if kernel.flops:
        return kernel.flops, "FLOP"
    return sum(a.nbytes for a in args if isinstance(a, np.ndarray)), "B"


def _run_setup(entry: str, numpy: bool):
    kernel = BY_ENTRY[entry]

    def setup():
        args = kernel.inputs(np.random.default_rng(0))
        items, _ = _work(kernel, args)
        if numpy:
            return items, lambda: kernel.numpy_op(args)
        fn = _built(entry)
        return items, lambda: fn(*args)
    return setup


RUN = ["matmul_scheduled", "softmax", "vector_add", "conv2d_nchw", "rowsum", "int8_matmul"]
for _entry in RUN:
    _unit = "FLOP" if BY_ENTRY[_entry].flops else "B"
    bench(f"run_{_entry}", _unit)(_run_setup(_entry, numpy=False))
    bench(f"numpy_{_entry}", _unit)(_run_setup(_entry, numpy=True))


@lru_cache(maxsize=None)
def _omp():
    """libgomp, the thread runtime the compiled parallel loops use (same process-wide copy)."""
    name = ctypes.util.find_library("gomp") or "libgomp.so.1"
    lib = ctypes.CDLL(name)
    lib.omp_get_max_threads.restype = ctypes.c_int
    return lib


def _threads_setup(entry: str, threads: int | None):
    kernel = BY_ENTRY[entry]

    def setup():
        args = kernel.inputs(np.random.default_rng(0))
        fn = _built(entry)
        omp = _omp()
        full = omp.omp_get_max_threads()

        def run():
            omp.omp_set_num_threads(threads or full)
            try:
                fn(*args)
            finally:
                omp.omp_set_num_threads(full)
        return _work(kernel, args)[0], run
    return setup


for _entry in ("matmul_scheduled", "conv2d_nchw"):
    _unit = "FLOP"
    bench(f"parallel_{_entry}_1thread", _unit)(_threads_setup(_entry, 1))
    bench(f"parallel_{_entry}_all_threads", _unit)(_threads_setup(_entry, None))
