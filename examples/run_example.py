"""What ``python examples/KERNEL.py`` (and ``python examples/schedule_X.py``) does: the kernel file's ``@T.prim_func`` has already been
parsed by tirkit's front end (``tirkit.lang``, decorator mode) when Python ran the file; this
compiles it with ``tirkit.compiler.build``, runs it on the inputs of ``references.py``, checks the
result against NumPy and prints each step with its time.

A kernel without a NumPy reference gets the checks of ``tirc run`` instead (bounds-checked run,
optimised == checked, deterministic, no NaN written). When TVM itself is installed, ``T`` is
TVM's and the function is TVM's: the file is then parsed again statically by tirkit.
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from references import BY_ENTRY, assert_matches, max_error  # noqa: E402  pylint: disable=wrong-import-position
from scheduled import SCHEDULES  # noqa: E402  pylint: disable=wrong-import-position


def as_tirkit(func: Any, path: Path) -> Any:
    """``func`` if it is tirkit's PrimFunc, else the file's kernel parsed statically by tirkit."""
    from tirkit import tir  # pylint: disable=import-outside-toplevel
    from tirkit.lang import from_source  # pylint: disable=import-outside-toplevel

    if isinstance(func, tir.PrimFunc):
        return func
    print(f"(T is not tirkit's here; parsing {path.name} statically with tirkit.lang)")
    return from_source(path.read_text(encoding="utf-8"), str(path))


def reference_for(name: str) -> Any:
    """The ``references`` entry of a kernel: its own, or that of the kernel its schedule makes
    (the naive matmul computes what the scheduled one does)."""
    alias = {s.entry: s.reference for s in SCHEDULES}
    return BY_ENTRY.get(name) or BY_ENTRY.get(alias.get(name, ""))


def median_ms(fn: Any, first_ms: float) -> float:
    """Median wall time of ``fn()`` in milliseconds (5 calls; 1 when a call takes over 0.5 s)."""
    times = []
    for _ in range(5 if first_ms < 500 else 1):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3


def main(func: Any, file: str) -> int:
    """Compile, run and check one kernel; print what was done. Returns the exit status."""
    from tirkit.compiler import build  # pylint: disable=import-outside-toplevel

    path = Path(file).resolve()
    func = as_tirkit(func, path)
    name = str(func.attrs.get("global_symbol", path.stem)) if func.attrs else path.stem
    kernel = reference_for(name)
    print(f"{path.name}: @T.prim_func {name} parsed by tirkit.lang "
          f"({len(func.params)} parameters)")
    if kernel is None:
        print(f"no NumPy reference for {name}; running `tirc run {path.name}`'s checks")
        from tirkit.cli.tirc_run import main as tirc_run  # pylint: disable=import-outside-toplevel
        return tirc_run([str(path), "--entry", name, "--repeat", "3"])
    t0 = time.perf_counter()
    compiled = build(func)
    print(f"compiled to LLVM and JIT-loaded in {(time.perf_counter() - t0) * 1e3:.0f} ms")
    ok = check_and_time(compiled, kernel)
    print(f"also try: tirc run examples/{path.name}; tirc examples/{path.name} --emit lowered")
    return 0 if ok else 1


def check_and_time(compiled: Any, kernel: Any) -> bool:
    """Run ``compiled`` on the reference inputs, compare with NumPy, time both; print it all.
    Returns whether the result matches."""
    args = kernel.inputs(np.random.default_rng(0))
    index, expected = kernel.reference(args)
    t0 = time.perf_counter()
    compiled(*args)
    first_ms = (time.perf_counter() - t0) * 1e3
    err = max_error(args[index], expected)
    try:
        assert_matches(args[index], expected)
        ok = True
    except AssertionError:
        ok = False
    print(f"ran on {', '.join(describe(a) for a in args)}: "
          f"{'matches' if ok else 'DIFFERS from'} NumPy (max relative error {err:.2g})")
    ours = median_ms(lambda: compiled(*args), first_ms)
    theirs = median_ms(lambda: kernel.numpy_op(args), 0.0)
    rate = f", {kernel.flops / ours / 1e6:.1f} GFLOP/s" if kernel.flops else ""
    print(f"time: {ours:.3f} ms per call{rate} (NumPy: {theirs:.3f} ms)")
    return ok


def run_schedule(file: str) -> int:
    """What ``python examples/schedule_X.py`` does: apply the script's ``schedule(sch)`` to its
    kernel (``scheduled.py`` says which), print the trace, compile, check against NumPy, time."""
    from scheduled import apply  # pylint: disable=import-outside-toplevel
    from tirkit.compiler import build  # pylint: disable=import-outside-toplevel

    name = Path(file).name
    item = next((s for s in SCHEDULES if s.script == name), None)
    if item is None:
        print(f"{name} is not in scheduled.SCHEDULES; nothing to run")
        return 1
    t0 = time.perf_counter()
    sch = apply(item)
    print(f"{name}: schedule(sch) applied to {item.kernel} ({item.entry}) in "
          f"{(time.perf_counter() - t0) * 1e3:.0f} ms; the trace:")
    print("\n".join("    " + line for line in sch.trace.as_python()))
    compiled = build(sch.mod[item.entry])
    ok = check_and_time(compiled, BY_ENTRY[item.reference])
    print(f"also try: tirc examples/{item.kernel} --schedule examples/{name} --emit scheduled")
    return 0 if ok else 1


def describe(arg: Any) -> str:
    """``float32[128, 128]`` for an array, the value for a scalar."""
    if isinstance(arg, np.ndarray):
        return f"{arg.dtype}[{', '.join(map(str, arg.shape))}]"
    return repr(arg)
