"""Differential tests of the cache, layout, reindex, blockize and tensorize primitives: schedules
applied to the kernels of examples/ are compiled with tirkit.compiler.build and give the same
numbers as the unscheduled kernel (and NumPy) on the same inputs."""
from pathlib import Path

import numpy as np
import pytest

from references import KERNELS, assert_matches  # examples/, via tests/conftest.py
from tirkit.compiler import build
from tirkit.lang import from_source
from tirkit.schedule import Schedule
from tirkit.schedule.testing import verify_trace_roundtrip
from tirkit.tir.tensor_intrin.cpu import VEC_FMA_16_F32_INTRIN

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
BY_FILE = {k.file: k for k in KERNELS}


def _func(kernel):
    func = from_source(kernel.path.read_text(), str(kernel.path))
    return func if not hasattr(func, "functions") else func[kernel.entry]


def _run(func, kernel, seed=0):
    mod = build(func.with_changes(attrs={**func.attrs, "global_symbol": kernel.entry}))
    args = kernel.inputs(np.random.default_rng(seed))
    index, expected = kernel.reference(args)
    mod[kernel.entry](*args)
    return args[index], expected


def _matmul(sch):
    sch.cache_read("C", 0, "global")
    sch.cache_read("C", 1, "global")
    sch.cache_write("C", 0, "global")
    sch.transform_layout("C", ("read", 1), lambda k, j: (j // 16, k, j % 16))
    i, j, k = sch.get_loops("C")
    sch.decompose_reduction("C", i)
    j0, j1 = sch.split(j, [None, 16])
    sch.reorder(i, j0, k, j1)
    sch.tensorize(j1, VEC_FMA_16_F32_INTRIN)


def _matmul_blockize_reindex(sch):
    sch.reindex("C", ("write", 0))
    i, j, k = sch.get_loops("C")
    i0, i1 = sch.split(i, [None, 8])
    sch.reorder(i0, j, k, i1)
    sch.blockize(i1)


def _softmax(sch):
    sch.transform_layout("maxelem", ("write", 0), lambda i: (i // 64, i % 64))
    sch.cache_read("norm", "expsum", "global")
    sch.cache_write("expsum", 0, "global")


def _conv2d(sch):
    sch.cache_read("conv", "pad", "global")
    sch.reindex("conv", ("write", 0))


def _rowsum(sch):
    sch.cache_write("B", 0, "global")
    sch.cache_read("B", 0, "global")
    sch.transform_layout("B", ("read", 0), lambda i, k: (k // 1024, i, k % 1024))


def _vector_add(sch):
    sch.cache_write("C", 0, "global")
    sch.transform_layout("C", ("write", 0), lambda i: (i // 4096, i % 4096))
    sch.cache_read("C", 1, "global")


CASES = {
    "matmul.py": [_matmul, _matmul_blockize_reindex],
    "softmax.py": [_softmax],
    "conv2d_nchw.py": [_conv2d],
    "rowsum.py": [_rowsum],
    "vector_add.py": [_vector_add],
}


@pytest.mark.parametrize("file,index", [(f, i) for f, fns in CASES.items()
                                        for i in range(len(fns))])
def test_scheduled_example_matches_the_unscheduled_kernel(file, index):
    kernel = BY_FILE[file]
    func = _func(kernel)
    sch = Schedule(func)
    CASES[file][index](sch)
    verify_trace_roundtrip(sch, func, text_format="json")
    plain, expected = _run(func, kernel)
    scheduled, _ = _run(sch.mod["main"], kernel)
    assert_matches(scheduled, expected)
    np.testing.assert_allclose(scheduled, plain, rtol=1e-5, atol=1e-5 * float(np.abs(plain).max()))


def test_padded_layout_compiles_and_matches():
    from sched_util import parse

    func = parse("""
    @T.prim_func
    def main(A: T.Buffer((30,), "float32"), C: T.Buffer((30,), "float32")):
        B = T.alloc_buffer((30,))
        for i in range(30):
            with T.block("B"):
                vi = T.axis.remap("S", [i])
                B[vi] = A[vi] * T.float32(2)
        for i in range(30):
            with T.block("C"):
                vi = T.axis.remap("S", [i])
                C[vi] = B[vi] + T.float32(1)
    """)
    sch = Schedule(func)
    sch.transform_layout("B", ("write", 0), lambda i: (i // 8, i % 8), pad_value=0.0)
    verify_trace_roundtrip(sch, func)
    mod = build(sch.mod)
    a = np.random.default_rng(3).standard_normal(30).astype("float32")
    c = np.zeros(30, "float32")
    mod["main"](a, c)
    np.testing.assert_allclose(c, a * 2 + 1, rtol=1e-6)
