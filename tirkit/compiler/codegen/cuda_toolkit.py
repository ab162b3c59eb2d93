"""Finding the pieces of the CUDA toolkit tirkit uses without a CUDA installation (mirrors
``tvm.contrib.nvcc.find_cuda_path`` / ``find_libdevice_path``): ``ptxas`` (the PTX assembler,
which runs without a GPU) and ``libdevice.10.bc`` (NVIDIA's math library as LLVM bitcode).

They are looked up, in order, in the ``nvidia-cuda-nvcc-cu12`` wheel (``pip install
'tirkit[gpu]'``; ``nvidia/cuda_nvcc/bin/ptxas``), under ``$CUDA_HOME`` / ``$CUDA_PATH``, on
``PATH`` (ptxas) and in ``/usr/local/cuda``.
"""
from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import tempfile
from functools import lru_cache
from pathlib import Path

__all__ = ["find_ptxas", "find_libdevice", "ptxas_version", "ptxas_supports", "ptxas_validate",
           "PtxasError"]


class PtxasError(RuntimeError):
    """ptxas rejected the PTX (the message is ptxas's)."""


def _wheel_roots() -> list[Path]:
    roots = []
    try:
        spec = importlib.util.find_spec("nvidia")
    except (ImportError, ValueError):
        spec = None
    for loc in (spec.submodule_search_locations or []) if spec else []:
        roots.append(Path(loc) / "cuda_nvcc")
    return roots


def _toolkit_roots() -> list[Path]:
    roots = _wheel_roots()
    for env in ("CUDA_HOME", "CUDA_PATH"):
        if os.environ.get(env):
            roots.append(Path(os.environ[env]))
    roots.append(Path("/usr/local/cuda"))
    return roots


@lru_cache(maxsize=1)
def find_ptxas() -> str | None:
    """The path of a ``ptxas`` executable, or None when there is none."""
    for root in _toolkit_roots():
        cand = root / "bin" / "ptxas"
        if cand.is_file() and os.access(cand, os.X_OK):
            return str(cand)
    return shutil.which("ptxas")


@lru_cache(maxsize=1)
def find_libdevice() -> str | None:
    """The path of ``libdevice.10.bc``, or None when there is none."""
    for root in _toolkit_roots():
        cand = root / "nvvm" / "libdevice" / "libdevice.10.bc"
        if cand.is_file():
            return str(cand)
    return None


@lru_cache(maxsize=1)
def ptxas_version() -> tuple[int, int] | None:
    """The CUDA release ``(major, minor)`` of the ptxas found (``ptxas --version``), or None."""
    exe = find_ptxas()
    if exe is None:
        return None
    proc = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=60,
                          check=False)
    found = re.search(r"release (\d+)\.(\d+)", proc.stdout)
    return (int(found.group(1)), int(found.group(2))) if found else None


def ptxas_supports(arch: str) -> bool:
    """Whether the ptxas found assembles for ``arch`` (``"sm_70"``): CUDA 13 dropped the
    architectures before sm_75 (Maxwell, Pascal, Volta)."""
    version = ptxas_version()
    if version is None:
        return False
    return version[0] < 13 or int(arch.removeprefix("sm_").rstrip("a")) >= 75


def ptxas_validate(ptx: str, arch: str = "sm_70", timeout: float = 120.0) -> bytes:
    """Assemble ``ptx`` for ``arch`` with ptxas and return the cubin (ELF) bytes.

    Raises:
        FileNotFoundError: when no ptxas is found (naming where it was looked for);
        PtxasError: with ptxas's message when it rejects the PTX.
    """
    exe = find_ptxas()
    if exe is None:
        raise FileNotFoundError("ptxas not found: install the nvidia-cuda-nvcc-cu12 wheel "
                                "(pip install 'tirkit[gpu]') or set CUDA_HOME")
    with tempfile.TemporaryDirectory(prefix="tirkit-ptxas-") as tmp:
        src, out = Path(tmp) / "kernel.ptx", Path(tmp) / "kernel.cubin"
        src.write_text(ptx, encoding="utf-8")
        proc = subprocess.run([exe, f"-arch={arch}", str(src), "-o", str(out)],
                              capture_output=True, text=True, timeout=timeout, check=False)
        if proc.returncode != 0:
            raise PtxasError(f"ptxas -arch={arch} rejected the PTX: "
                             f"{(proc.stderr or proc.stdout).strip()}")
        return out.read_bytes()
