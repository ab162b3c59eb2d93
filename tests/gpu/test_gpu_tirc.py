"""``tirc --target cuda``: PTX, NVPTX LLVM IR, a cubin (ptxas), the lowered host/kernel split;
``tirc run`` on a GPU kernel runs it on a GPU or stops with a clear error (exit 2) without one."""
from pathlib import Path

import pytest

from gpu_helpers import GPU_OK, validate
from tirkit.cli.tirc import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "gpu"
VEC = EXAMPLES / "vector_add.py"


def tirc(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("target,arch", [("cuda", "sm_70"), ("cuda-sm_90", "sm_90"),
                                         ("nvptx64-nvidia-cuda", "sm_70")])
def test_emit_ptx(capsys, target, arch):
    code, out, err = tirc(capsys, VEC, "--target", target, "--emit", "ptx")
    assert code == 0, err
    assert f".target {arch}" in out and ".visible .entry vector_add_kernel(" in out
    validate(out, arch)


def test_mcpu_and_llvm_ir(capsys):
    code, out, _ = tirc(capsys, VEC, "--target", "cuda", "-mcpu", "sm_80", "--emit", "llvm")
    assert code == 0
    assert 'target triple = "nvptx64-nvidia-cuda"' in out and "define ptx_kernel void" in out
    assert "llvm.nvvm.read.ptx.sreg" in out or "@llvm.nvvm" in out


def test_emit_obj_is_a_cubin(capsys, tmp_path):
    out = tmp_path / "v.cubin"
    code, _, err = tirc(capsys, VEC, "--target", "cuda-sm_80", "--emit", "obj", "-o", out)
    if code == 2 and "ptxas not found" in err:
        pytest.skip(err.strip())
    assert code == 0 and out.read_bytes()[:4] == b"\x7fELF"


def test_emit_lowered_shows_the_host_launch_and_the_kernel(capsys):
    code, out, _ = tirc(capsys, VEC, "--target", "cuda", "--emit", "lowered")
    assert code == 0
    assert 'T.call_packed("vector_add_kernel"' in out and '"calling_conv": 2' in out


def test_ptx_needs_a_gpu_target(capsys):
    code, _, err = tirc(capsys, VEC, "--emit", "ptx")
    assert code == 2 and "--emit ptx needs a GPU target" in err


def test_bad_cuda_arch_is_a_usage_error(capsys):
    code, _, err = tirc(capsys, VEC, "--target", "cuda", "--mcpu", "sm_20", "--emit", "ptx")
    assert code == 2 and "unsupported CUDA architecture 'sm_20'" in err


def test_run_a_gpu_kernel(capsys):
    code, out, err = tirc(capsys, "run", VEC, "--entry", "vector_add", "--dim", "n=1000",
                          "--repeat", "2")
    if GPU_OK:
        assert code == 0, out + err
        assert "deterministic over two runs" in out
    else:
        assert code == 2
        assert "vector_add is a GPU kernel and compiled to PTX" in err
        assert "cannot run here" in err and "Traceback" not in err


def test_a_gpu_kernel_for_the_cpu_is_a_clear_error(capsys):
    # issue 17: a thread-bound loop on the CPU target used to end in an internal CodegenError
    code, out, err = tirc(capsys, VEC, "--emit", "llvm")
    assert code == 1 and out == ""
    assert "internal" not in err and "Traceback" not in err
    assert ("function 'vector_add' launches GPU threads (blockIdx.x, threadIdx.x): the CPU "
            "target cannot run it; compile it for a GPU with target='cuda'") in err


def test_a_cpu_kernel_for_the_gpu_is_a_clear_error(capsys):
    code, _, err = tirc(capsys, str(Path(VEC).parents[1] / "matmul.py"), "--target", "cuda",
                        "--emit", "ptx")
    assert code == 1 and "internal" not in err
    assert "the module has no GPU kernel: bind loops to threadIdx/blockIdx" in err
