"""Shared by the GPU tests: ptxas validation (skipped with the reason when ptxas is missing) and
the ``gpu`` marker's skip when no NVIDIA GPU can run kernels here."""
import pytest

from tirkit.compiler.codegen.cuda_toolkit import find_ptxas, ptxas_validate
from tirkit.compiler.runtime.cuda import cuda_available

GPU_OK, GPU_REASON = cuda_available()
needs_gpu = pytest.mark.skipif(not GPU_OK, reason=f"no NVIDIA GPU here: {GPU_REASON}")


def validate(ptx: str, arch: str) -> bytes:
    """ptxas-assemble ``ptx`` for ``arch`` (skip when ptxas is not installed)."""
    if find_ptxas() is None:
        pytest.skip("ptxas not found: install nvidia-cuda-nvcc-cu12 (the test extra has it)")
    return ptxas_validate(ptx, arch)
