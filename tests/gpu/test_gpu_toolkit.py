"""The CUDA toolkit pieces the GPU tests rely on (issue 17 acceptance: PTX is validated by ptxas
in ``make test``). On the platforms the ``nvidia-cuda-nvcc-cu12`` wheel exists for, the test
extra installs it, so ptxas and libdevice must be found: a broken install fails here instead of
turning every ptxas check into a skip. ptxas itself must reject bad PTX (the checks can fail)."""
import platform

import pytest

from tirkit.compiler.codegen.cuda_toolkit import (PtxasError, find_libdevice, find_ptxas,
                                                   ptxas_supports, ptxas_validate, ptxas_version)

WHEEL_PLATFORM = platform.system() == "Linux" and platform.machine() in ("x86_64", "aarch64")


@pytest.mark.skipif(not WHEEL_PLATFORM, reason="nvidia-cuda-nvcc-cu12 has no wheel for "
                    f"{platform.system()}/{platform.machine()}; the ptxas checks skip there")
def test_the_test_extra_provides_ptxas_and_libdevice():
    assert find_ptxas() is not None, "ptxas not found: `make test` installs nvidia-cuda-nvcc-cu12"
    assert find_libdevice() is not None and find_libdevice().endswith("libdevice.10.bc")


BAD_PTX = """.version 7.0
.target sm_75
.address_size 64
.visible .entry k(.param .u64 p)
{
    ld.param.u64 %rd1, [p];
    ret;
}
"""


def test_ptxas_rejects_bad_ptx_with_its_message():
    if find_ptxas() is None:
        pytest.skip("ptxas not found: install nvidia-cuda-nvcc-cu12 (the test extra has it)")
    rejected = r"(?s)ptxas -arch=sm_75 rejected the PTX: .*Unknown symbol .%rd1"
    with pytest.raises(PtxasError, match=rejected):
        ptxas_validate(BAD_PTX, "sm_75")  # %rd1 is never declared
    good = BAD_PTX.replace("{\n", "{\n    .reg .b64 %rd<2>;\n")
    assert ptxas_validate(good, "sm_75")[:4] == b"\x7fELF"


def test_ptxas_version_and_the_architectures_it_assembles():
    if find_ptxas() is None:
        pytest.skip("ptxas not found: install nvidia-cuda-nvcc-cu12 (the test extra has it)")
    major, _ = ptxas_version()
    assert major >= 11
    assert ptxas_supports("sm_90") and ptxas_supports("sm_90a")
    # CUDA 13 dropped Volta; the 12.x wheel of the test extra still assembles it
    assert ptxas_supports("sm_70") == (major < 13)
