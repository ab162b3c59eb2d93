"""One command to verify the GPU backend on a machine with an NVIDIA GPU (issue 17):

    make gpu-check                        # in the repository's .venv (what `make test` installs)
    python3 bench/gpu_check.py            # any Python with numpy and llvmlite: nothing to install
    python3 bench/gpu_check.py --no-tests --json OUT.json

It imports tirkit from this checkout (no install needed) and needs only numpy and llvmlite (the
GPU images with PyTorch/numba have both), the NVIDIA driver's ``libcuda.so.1``, and libdevice
(the ``nvidia-cuda-nvcc-cu12`` wheel or ``/usr/local/cuda``) for the math in softmax. On a lent
device machine (no network), from the repository root:

    PYTHONUNBUFFERED=1 python3 bench/gpu_check.py --json $OUT/gpu_check.json 2>&1 | tee $OUT/log

1. environment: GPU and driver, ptxas and libdevice, CuPy / PyTorch if installed;
2. every GPU example of examples/gpu/ (vector add, shared-memory tiled matmul, register-tiled
   matmul, warp-shuffle row reduction, softmax) is built for the GPU's architecture, run on
   NumPy inputs (copied to the device) and compared with NumPy (float64 reference);
3. the tiled matmuls (``matmul_shared``, ``matmul_register_tiled``; N = 1024, 2048, 4096) are
   timed on device arrays (no copies; median of ``--repeat`` calls, each waiting for the GPU)
   next to ``cupy.matmul`` and ``torch.matmul`` on the same sizes when those are installed,
   and the softmax example (1024 x 1024) next to ``torch.softmax``;
4. ``pytest tests/gpu`` (the tests marked ``gpu`` run instead of being skipped; conftest files
   above ``tests/`` are not loaded, so the docs run's Sybil need not be installed; ptxas checks
   for architectures the machine's ptxas dropped, sm_70 under CUDA 13, skip with the reason).

Prints a summary and writes ``--json`` (default bench/results/gpu_check.json); exits 1 when a check failed, 2 when
there is no usable GPU.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "examples" / "gpu"))

from gpu_kernels import GPU_KERNELS  # noqa: E402
from tirkit.compiler import build  # noqa: E402
from tirkit.compiler.codegen.cuda_toolkit import find_libdevice, find_ptxas  # noqa: E402
from tirkit.compiler.runtime.cuda import cuda_available, get_driver  # noqa: E402
from tirkit.lang import from_source  # noqa: E402


class DeviceBuffer:
    """Device memory from the driver, exposed as ``__cuda_array_interface__`` (zero copy)."""

    def __init__(self, host: np.ndarray) -> None:
        self.drv = get_driver()
        self.shape, self.dtype = host.shape, host.dtype
        self.ptr = self.drv.mem_alloc(host.nbytes)
        self.drv.copy_to_device(self.ptr, host.ctypes.data, host.nbytes)
        self.__cuda_array_interface__ = {"shape": host.shape, "typestr": host.dtype.str,
                                         "data": (self.ptr, False), "version": 3}

    def numpy(self) -> np.ndarray:
        """A host copy."""
        out = np.empty(self.shape, self.dtype)
        self.drv.copy_to_host(out.ctypes.data, self.ptr, out.nbytes)
        return out

    def free(self) -> None:
        """Release the memory."""
        self.drv.mem_free(self.ptr)


def median_ms(fn: Callable[[], Any], repeat: int) -> float:
    """Median wall time in ms of ``fn`` (which must wait for the GPU), after one warm-up."""
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3


def environment() -> dict[str, Any]:
    """What this machine offers."""
    ok, what = cuda_available()
    env: dict[str, Any] = {"gpu": what if ok else None, "reason": None if ok else what,
                           "ptxas": find_ptxas(), "libdevice": find_libdevice()}
    for pkg in ("cupy", "torch"):
        try:
            mod = __import__(pkg)
            env[pkg] = getattr(mod, "__version__", "?")
        except ImportError:
            env[pkg] = None
    return env


def arch() -> str:
    """``cuda -arch=sm_XX`` of device 0 (sm_90 for anything newer than Hopper)."""
    major, minor = get_driver().compute_capability(0)
    known = {70, 72, 75, 80, 86, 87, 89, 90}
    cc = major * 10 + minor
    return f"cuda -arch=sm_{cc if cc in known else max(k for k in known if k <= cc)}"


def check_examples(target: str) -> list[dict[str, Any]]:
    """Build and run every example against NumPy."""
    rows = []
    for kernel in GPU_KERNELS:
        row: dict[str, Any] = {"example": kernel.entry}
        try:
            t0 = time.perf_counter()
            mod = build(from_source(kernel.path.read_text(), str(kernel.path)), target=target)
            row["compile_s"] = round(time.perf_counter() - t0, 2)
            args = kernel.inputs(np.random.default_rng(0))
            index, expected = kernel.reference(args)
            mod[kernel.entry](*args)
            err = float(np.max(np.abs(args[index] - expected)))
            ok = bool(np.allclose(args[index], expected, rtol=kernel.rtol, atol=kernel.atol))
            row.update(ok=ok, max_abs_error=err)
        except Exception as exc:  # pylint: disable=broad-except  # reported, not raised
            row.update(ok=False, error=f"{type(exc).__name__}: {exc}")
        rows.append(row)
    return rows


#: the timed matmul examples (N x N float32; N a multiple of 128)
MATMULS = ("matmul_shared", "matmul_register_tiled")


def _matmul_source(name: str, n: int) -> str:
    path = ROOT / "examples" / "gpu" / f"{name}.py"
    return path.read_text().replace("N = 1024", f"N = {n}")


def time_matmul(target: str, sizes: list[int], repeat: int) -> list[dict[str, Any]]:
    """Milliseconds and TFLOP/s of the tiled matmuls (``<example>_ms``, ``<example>_ok``) and of
    CuPy / PyTorch, per size."""
    rows = []
    rng = np.random.default_rng(0)
    for n in sizes:
        a, b = (rng.uniform(-1, 1, (n, n)).astype(np.float32) for _ in range(2))
        expected = a.astype(np.float64) @ b
        row: dict[str, Any] = {"n": n}
        for name in MATMULS:
            mod = build(from_source(_matmul_source(name, n)), target=target)
            bufs = [DeviceBuffer(x) for x in (a, b, np.zeros((n, n), np.float32))]
            row[f"{name}_ms"] = median_ms(lambda: mod(*bufs), repeat)  # pylint: disable=cell-var-from-loop
            row[f"{name}_ok"] = bool(np.allclose(bufs[2].numpy(), expected, rtol=1e-3,
                                                 atol=1e-2))
            for buf in bufs:
                buf.free()
        row.update(_vendor_times(a, b, repeat))
        flops = 2.0 * n ** 3
        for key in [k for k in row if k.endswith("_ms")]:
            row[key.replace("_ms", "_tflops")] = round(flops / (row[key] * 1e-3) / 1e12, 2)
        rows.append(row)
    return rows


def _vendor_times(a: np.ndarray, b: np.ndarray, repeat: int) -> dict[str, float]:
    out: dict[str, float] = {}
    try:
        import cupy  # pylint: disable=import-outside-toplevel

        ca, cb = cupy.asarray(a), cupy.asarray(b)
        out["cupy_ms"] = median_ms(lambda: (cupy.matmul(ca, cb),
                                            cupy.cuda.Device().synchronize()), repeat)
    except ImportError:
        pass
    try:
        import torch  # pylint: disable=import-outside-toplevel

        ta, tb = torch.from_numpy(a).cuda(), torch.from_numpy(b).cuda()
        out["torch_ms"] = median_ms(lambda: (torch.matmul(ta, tb), torch.cuda.synchronize()),
                                    repeat)
    except ImportError:
        pass
    return out


def time_softmax(target: str, repeat: int) -> dict[str, Any]:
    """Milliseconds of the softmax example (1024 x 1024 float32, device arrays) and of
    ``torch.softmax`` on the same input when PyTorch is installed."""
    kernel = next(k for k in GPU_KERNELS if k.entry == "softmax")
    mod = build(from_source(kernel.path.read_text(), str(kernel.path)), target=target)
    args = kernel.inputs(np.random.default_rng(1))
    bufs = [DeviceBuffer(a) for a in args]
    row: dict[str, Any] = {"shape": list(args[0].shape)}
    row["tirkit_ms"] = median_ms(lambda: (mod(*bufs), get_driver().synchronize()), repeat)
    row["tirkit_ok"] = bool(np.allclose(bufs[1].numpy(), kernel.reference(args)[1],
                                        rtol=kernel.rtol, atol=kernel.atol))
    for buf in bufs:
        buf.free()
    try:
        import torch  # pylint: disable=import-outside-toplevel

        ta = torch.from_numpy(args[0]).cuda()
        row["torch_ms"] = median_ms(lambda: (torch.softmax(ta, dim=1), torch.cuda.synchronize()),
                                    repeat)
    except ImportError:
        pass
    return row


def run_tests() -> int:
    """``pytest tests/gpu`` in a subprocess; its exit status."""
    return subprocess.call([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider",
                            "--confcutdir", str(ROOT / "tests"), str(ROOT / "tests" / "gpu")],
                           cwd=ROOT)


def print_summary(env: dict[str, Any], examples: list[dict[str, Any]],
                  timings: list[dict[str, Any]], tests_rc: int | None,
                  softmax: dict[str, Any] | None = None) -> None:
    """The report on stdout."""
    print(f"GPU: {env['gpu']}; ptxas: {env['ptxas']}; libdevice: {env['libdevice']}; "
          f"cupy: {env['cupy']}; torch: {env['torch']}")
    print("\nexamples vs NumPy:")
    for row in examples:
        status = "PASS" if row.get("ok") else "FAIL"
        detail = row.get("error") or f"max abs error {row['max_abs_error']:.3g}, " \
                                     f"compiled in {row['compile_s']} s"
        print(f"  {status}  {row['example']:<18} {detail}")
    print("\ntiled matmuls (float32, ms median; TFLOP/s):")
    for row in timings:
        parts = [f"{name} {row[f'{name}_ms']:.3f} ms ({row[f'{name}_tflops']} TFLOP/s, "
                 f"{'correct' if row[f'{name}_ok'] else 'WRONG'})" for name in MATMULS]
        for lib in ("cupy", "torch"):
            if f"{lib}_ms" in row:
                parts.append(f"{lib} {row[f'{lib}_ms']:.3f} ms ({row[f'{lib}_tflops']} TFLOP/s)")
        print(f"  N={row['n']:<5} " + "; ".join(parts))
    if softmax:
        extra = f"; torch.softmax {softmax['torch_ms']:.3f} ms" if "torch_ms" in softmax else ""
        print(f"\nsoftmax {softmax['shape']}: tirkit {softmax['tirkit_ms']:.3f} ms "
              f"({'correct' if softmax['tirkit_ok'] else 'WRONG'}){extra}")
    if tests_rc is not None:
        print(f"\npytest tests/gpu: {'PASS' if tests_rc == 0 else f'FAIL (exit {tests_rc})'}")


def main(argv: list[str] | None = None) -> int:
    """Run the checks; 0 all passed, 1 a check failed, 2 no GPU."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--repeat", type=int, default=20, help="timed calls per measurement")
    p.add_argument("--sizes", default="1024,2048,4096", help="matmul sizes (multiples of 64)")
    p.add_argument("--no-tests", action="store_true", help="do not run pytest tests/gpu")
    p.add_argument("--json", default=str(ROOT / "bench" / "results" / "gpu_check.json"),
                   help="where the results go (JSON)")
    args = p.parse_args(argv)
    env = environment()
    if env["gpu"] is None:
        print(f"no usable GPU: {env['reason']}")
        return 2
    target = arch()
    print(f"target: {target}")
    examples = check_examples(target)
    timings = time_matmul(target, [int(s) for s in args.sizes.split(",")], args.repeat)
    softmax = time_softmax(target, args.repeat)
    tests_rc = None if args.no_tests else run_tests()
    print_summary(env, examples, timings, tests_rc, softmax)
    out = Path(args.json)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"env": env, "target": target, "examples": examples,
                               "matmul": timings, "softmax": softmax,
                               "tests_rc": tests_rc}, indent=2))
    failed = not all(r.get("ok") for r in examples) \
        or not all(r[f"{m}_ok"] for r in timings for m in MATMULS) \
        or not softmax["tirkit_ok"] or (tests_rc not in (None, 0))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
