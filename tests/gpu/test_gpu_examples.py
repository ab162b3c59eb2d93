"""The GPU examples of examples/gpu/ (vector add, shared-memory tiled matmul, warp-shuffle row
reduction, softmax): their PTX passes ptxas for sm_70 and sm_90, every pipeline stage prints and
parses back (contract 2), the tiled matmul gets its two barriers; on a GPU (``gpu`` marker)
they match NumPy."""
import sys
from pathlib import Path

import numpy as np
import pytest

from gpu_helpers import needs_gpu, validate
from tirkit.compiler import build
from tirkit.compiler.driver import compile_module
from tirkit.compiler.pipeline import run_pipeline
from tirkit.ir import structural_equal
from tirkit.lang import from_source
from tirkit.printer import script

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples" / "gpu"))
from gpu_kernels import GPU_KERNELS  # noqa: E402  pylint: disable=wrong-import-position

IDS = [k.entry for k in GPU_KERNELS]


def load(kernel):
    return from_source(kernel.path.read_text(), str(kernel.path))


@pytest.mark.parametrize("kernel", GPU_KERNELS, ids=IDS)
def test_example_ptx_is_accepted_by_ptxas(kernel):
    for arch in ("sm_70", "sm_90"):
        compiled = compile_module(load(kernel), f"cuda -arch={arch}")
        assert f".visible .entry {kernel.entry}_kernel(" in compiled.ptx
        validate(compiled.ptx, arch)


@pytest.mark.parametrize("kernel", GPU_KERNELS, ids=IDS)
def test_every_cuda_stage_round_trips(kernel):
    for stage in run_pipeline(load(kernel), config={"tirkit.target": "cuda"}):
        text = script(stage.mod)
        assert structural_equal(from_source(text), stage.mod, map_free_vars=True), stage.name


def test_matmul_barriers_and_shared_tiles():
    kernel = next(k for k in GPU_KERNELS if k.entry == "matmul_shared")
    ptx = compile_module(load(kernel), "cuda -arch=sm_80").ptx
    assert ptx.count("bar.sync") == 2  # after the tile loads, before the next loads
    assert ".shared .align 16 .b8" in ptx and "ld.shared" in ptx
    assert ".maxntid 256" in ptx


def test_softmax_uses_libdevice_and_reductions():
    kernel = next(k for k in GPU_KERNELS if k.entry == "softmax")
    ptx = compile_module(load(kernel), "cuda -arch=sm_80").ptx
    assert "ex2.approx" in ptx or "__nv_expf" not in ptx  # libdevice's expf was inlined
    # two 128-thread allreduces, each TVM's two-stage warp reduction: 5 + 2 shuffles down, a
    # broadcast, two barriers (the shared-memory tree took 9 barriers each)
    assert ptx.count("shfl.sync.down") == 14 and ptx.count("shfl.sync.idx") == 2
    assert ptx.count("bar.sync") == 4


def test_row_reduce_uses_warp_shuffles():
    kernel = next(k for k in GPU_KERNELS if k.entry == "row_reduce_warp")
    ptx = compile_module(load(kernel), "cuda -arch=sm_80").ptx
    assert ptx.count("shfl.sync.down") == 5 and "activemask" in ptx


@needs_gpu
@pytest.mark.parametrize("kernel", GPU_KERNELS, ids=IDS)
def test_example_matches_numpy_on_the_gpu(kernel):
    mod = build(load(kernel), target="cuda")
    args = kernel.inputs(np.random.default_rng(0))
    index, expected = kernel.reference(args)
    mod[kernel.entry](*args)
    np.testing.assert_allclose(args[index], expected, rtol=kernel.rtol, atol=kernel.atol)


def test_register_tiled_matmul_keeps_its_accumulators_in_registers():
    kernel = next(k for k in GPU_KERNELS if k.entry == "matmul_register_tiled")
    ptx = build(from_source(kernel.path.read_text()), target="cuda -arch=sm_80").ptx
    assert "ld.local" not in ptx and "st.local" not in ptx  # 64 accumulators, all unrolled
    assert ptx.count("fma.rn.f32") == 8 * 64  # 8 k steps of 8 x 8 multiply-adds per tile
    assert ptx.count("bar.sync") == 2
    # the let-bound (CSE) bases of the 4-float shared loads are known 16-byte aligned
    assert ptx.count("ld.shared.v4.f32") + ptx.count("ld.shared.v4.b32") == 8 * 4
    validate(ptx, "sm_80")
