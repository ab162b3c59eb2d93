"""Shared by the GPU tests: ptxas validation (skipped with the reason when ptxas is missing) and
the ``gpu`` marker's skip when no NVIDIA GPU can run kernels here."""
import pytest

from tirkit.compiler.codegen.cuda_toolkit import (find_ptxas, ptxas_supports, ptxas_validate,
                                                   ptxas_version)
from tirkit.compiler.runtime.cuda import CudaUnavailable, cuda_available

GPU_OK, GPU_REASON = cuda_available()
needs_gpu = pytest.mark.skipif(not GPU_OK, reason=f"no NVIDIA GPU here: {GPU_REASON}")


def validate(ptx: str, arch: str) -> bytes:
    """ptxas-assemble ``ptx`` for ``arch`` (skip when ptxas is not installed, or is a CUDA 13+
    ptxas, as on a GPU machine's toolkit, asked for an architecture it dropped)."""
    if find_ptxas() is None:
        pytest.skip("ptxas not found: install nvidia-cuda-nvcc-cu12 (the test extra has it)")
    if not ptxas_supports(arch):
        pytest.skip(f"ptxas {ptxas_version()} ({find_ptxas()}) cannot assemble {arch}; the "
                    "nvidia-cuda-nvcc-cu12 wheel of the test extra can")
    return ptxas_validate(ptx, arch)


def run_or_check(mod, *args) -> bool:
    """Call ``mod`` on ``args``: on a GPU it runs (True); without one the arguments are still
    checked and the call must fail only for want of a GPU (False)."""
    if GPU_OK:
        mod(*args)
    else:
        with pytest.raises(CudaUnavailable):
            mod(*args)
    return GPU_OK
