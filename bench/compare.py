"""Side by side: tirkit next to Apache TVM (and NumPy) on six classic kernels, in one run.

    TIRKIT_BENCH_TVM=/path/to/tvm-venv/bin/python make bench     # tirkit vs TVM vs NumPy
    make bench                                                   # tirkit vs NumPy only

For each kernel of examples/ (vector add 2^22 f32, matmul 1024^3 as examples/matmul_scheduled.py
schedules it, conv2d NCHW 1x64x56x56 3x3, softmax 4096x1024, row sum 4096^2, int8 matmul 512^3),
both tools get the same TVMScript text (the tirx spelling TVM 0.27 parses, made by tirfmt) and
each stage is timed in interleaved rounds (tirkit, then TVM, the order swapped every round) in one
process pair: parse (``from_source``), print (``.script()``), compile + JIT (``build`` vs
``tvm.compile`` plus the first ``mod[name]``, where TVM's LLVM module JIT-compiles lazily), a
rebuild of the unchanged kernel (tirkit's compile cache; TVM has none) and
run. The reported time of a stage is the median over the rounds: CPU time of the calling thread
for parse, print, compile and rebuild (single-threaded on both sides), wall time for run. Outputs of both are verified
against NumPy in float64. tirkit is called with ordinary NumPy arrays (NumPy's own allocation,
16-byte aligned); TVM refuses those (``FromDLPack: Data is not aligned to 64 bytes``), so its
arguments are copied once into its own 64-byte-aligned tensors, outside the timed calls.

Writes bench/results/compare.md, compare.json and compare.png (matplotlib, the ``bench``
extra), with the machine's facts (CPU model and flags, threads, versions).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "2")  # before libgomp is loaded

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent))
sys.path.insert(0, str(ROOT.parent / "examples"))

from references import BY_ENTRY, assert_matches  # noqa: E402
from compare_report import machine_facts, write_reports  # noqa: E402
from tvm_side import TVMWorker  # noqa: E402

from tirkit.cli.tirfmt_format import Mode, format_source  # noqa: E402
from tirkit.compiler import build  # noqa: E402
from tirkit.lang import from_source  # noqa: E402

KERNELS = ["vector_add", "matmul_scheduled", "matmul_packed", "conv2d_nchw", "softmax", "rowsum", "int8_matmul"]
STAGES = ["parse", "print", "compile", "rebuild", "run"]


def tirx_text(entry: str) -> str:
    """The kernel's function in the tirx spelling (``@T.prim_func(s_tir=True)``, ``T.sblock``)
    that TVM 0.27 parses, as ``tirfmt --dialect tirx`` writes it; tirkit parses it too."""
    path = BY_ENTRY[entry].path
    result = format_source(path.read_text(), str(path), Mode(dialect="tirx"))
    if result.errors:
        raise RuntimeError("; ".join(result.errors))
    return _unit(result.text[result.text.index("@T.prim_func"):])


def _unit(text: str) -> str:
    """The decorated function alone: up to the next line at column 0 after its ``def`` header (the
    examples end with an ``if __name__ == "__main__":`` runner TVM's parser rejects)."""
    lines = text.splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.startswith("def "))
    end = next((i for i in range(start + 1, len(lines))
                if lines[i].strip() and not lines[i][0].isspace()
                and not lines[i].startswith(")")), len(lines))
    return "".join(lines[:end]).rstrip() + "\n"


def _time(fn, number: int = 1) -> float:
    """Mean wall seconds of ``number`` back-to-back calls of ``fn``."""
    t0 = time.perf_counter()
    for _ in range(number):
        fn()
    return (time.perf_counter() - t0) / number


def _cpu(fn) -> float:
    """CPU seconds of this thread in ``fn``: the single-threaded stages (parse, print, compile,
    rebuild) are timed so on both sides, since on a shared machine wall time mostly measures
    how often the scheduler preempted the call (a 1 ms call often runs in one slice, a 5 ms one
    rarely does)."""
    t0 = time.thread_time()
    fn()
    return time.thread_time() - t0


class Side:
    """The tirkit side of one kernel: source, parsed function, built module."""

    def __init__(self, entry: str, text: str, opt_level: int, cache_dir: str) -> None:
        self.entry, self.text, self.opt_level = entry, text, opt_level
        self.cache_dir = cache_dir
        self.func = from_source(text)
        self.module = None

    def parse(self) -> float:
        return _cpu(lambda: setattr(self, "func", from_source(self.text)))

    def print(self) -> float:
        return _cpu(self.func.script)

    def compile(self) -> float:
        os.environ["TIRKIT_CACHE_DIR"] = ""  # a real compile, the persistent cache off
        try:
            return _cpu(lambda: setattr(self, "module", build(self.func,
                                                               opt_level=self.opt_level)))
        finally:
            os.environ["TIRKIT_CACHE_DIR"] = self.cache_dir

    def rebuild(self) -> float:
        """A build of the unchanged kernel, freshly parsed (untimed), from the compile cache."""
        func = from_source(self.text)
        return _cpu(lambda: build(func, opt_level=self.opt_level))


PAUSE = {"stage": 0.02, "run": 0.1}  # seconds before each timed call (--pause, --run-pause)
#: after the rest before a run sample, wait (at most ``limit`` s) until fewer than ``busy`` CPUs
#: were busy over ``window`` s: NumPy's OpenBLAS keeps one core spinning ~130 ms after each
#: matmul on this 2-core VM, longer than the rest, and a parallel kernel started meanwhile
#: shares that core with it (matmul_packed with 2 threads: 11-12 ms idle, ~23 ms then)
SETTLE = {"window": 0.05, "busy": 0.25, "limit": 1.0}
SETTLED: list[float] = []  # seconds each run sample waited for idle CPUs after its rest


def _cpu_ticks() -> tuple[int, int] | None:
    """``(busy, total)`` clock ticks of all CPUs so far (Linux ``/proc/stat``), else None."""
    try:
        with open("/proc/stat", encoding="ascii") as f:
            ticks = [int(x) for x in f.readline().split()[1:9]]
    except (OSError, ValueError):
        return None
    idle = ticks[3] + ticks[4]  # idle, iowait
    return sum(ticks) - idle, sum(ticks)


def _settle(rest: float) -> float:
    """Sleep ``rest`` seconds, then until the machine's CPUs are idle (see :data:`SETTLE`);
    the seconds waited after the rest."""
    time.sleep(rest)
    start = time.monotonic()
    ncpu = os.cpu_count() or 1
    while time.monotonic() - start < SETTLE["limit"]:
        before = _cpu_ticks()
        time.sleep(SETTLE["window"])
        after = _cpu_ticks()
        if before is None or after is None:
            break
        total = after[1] - before[1]
        if total <= 0 or (after[0] - before[0]) / total * ncpu < SETTLE["busy"]:
            break
    return time.monotonic() - start


def _rounds(n: int, timers: dict[str, object], pause: str = "stage") -> dict[str, float]:
    """Median seconds of each timer over ``n`` interleaved rounds (order rotated per round).
    Each call starts after a short pause, so the worker threads the previous call left spinning
    (libgomp's, TVM's thread pool's) have gone idle instead of competing for the cores."""
    names = list(timers)
    times: dict[str, list[float]] = {k: [] for k in names}
    for r in range(n):
        order = names[r % len(names):] + names[:r % len(names)]
        for name in order:
            if pause == "run":
                SETTLED.append(_settle(PAUSE[pause]))
            else:
                time.sleep(PAUSE[pause])
            times[name].append(timers[name]())
    return {k: statistics.median(v) for k, v in times.items()}


def bench_kernel(entry: str, args: argparse.Namespace, tvm: TVMWorker | None,
                 tmp: Path) -> dict:
    """Every stage of one kernel, both sides; verified outputs."""
    text = tirx_text(entry)
    side = Side(entry, text, args.opt_level, str(tmp / "cache"))
    if tvm is not None:
        tvm.load(entry, text)
    out: dict[str, dict[str, float]] = {}
    for stage, rounds in (("parse", args.rounds), ("print", args.rounds),
                          ("compile", args.compile_rounds)):
        timers = {"tirkit": getattr(side, stage)}
        if tvm is not None:
            timers["tvm"] = lambda s=stage: tvm.timed(s, entry)
        out[stage] = _rounds(rounds, timers)
    build(side.func, opt_level=args.opt_level)  # fills the persistent cache
    out["rebuild"] = _rounds(args.rounds, {"tirkit": side.rebuild})
    out["run"] = _run_stage(entry, side, tvm, args, tmp)
    return out


def _run_stage(entry: str, side: Side, tvm: TVMWorker | None, args: argparse.Namespace,
               tmp: Path) -> dict[str, float]:
    kernel = BY_ENTRY[entry]
    inputs = kernel.inputs(np.random.default_rng(0))
    plain = [np.array(a) if isinstance(a, np.ndarray) else a for a in inputs]  # NumPy's own
    index, expected = kernel.reference(plain)
    fn = side.module[entry]
    fn(*plain)
    assert_matches(plain[index], expected)
    number = args.run_number
    timers = {"tirkit": lambda: _time(lambda: fn(*plain), number)}
    np_args = [np.array(a) if isinstance(a, np.ndarray) else a for a in inputs]
    timers["numpy"] = lambda: _time(lambda: kernel.numpy_op(np_args), number)
    if tvm is not None:
        files = []
        for i, a in enumerate(inputs):
            np.save(tmp / f"{entry}_{i}.npy", a)
            files.append(str(tmp / f"{entry}_{i}.npy"))
        tvm.inputs(entry, files)
        timers["tvm"] = lambda: tvm.timed("run", entry, number=number)
    result = _rounds(args.run_rounds, timers, "run")
    if tvm is not None:
        assert_matches(tvm.output(entry, index, tmp / f"{entry}_out.npy"), expected)
    result["aligned64"] = sum(1 for a in plain if isinstance(a, np.ndarray)
                              and a.ctypes.data % 64 == 0)
    result["arrays"] = sum(1 for a in plain if isinstance(a, np.ndarray))
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("kernels", nargs="*", default=KERNELS)
    parser.add_argument("--rounds", type=int, default=15, help="rounds of parse/print/rebuild")
    parser.add_argument("--compile-rounds", type=int, default=15,
                        help="rounds of compile + JIT (default 15, as parse and print: on a "
                             "shared VM one build's CPU time moves by up to +-30%% between "
                             "rounds, and a median of 5 moved a kernel's ratio by 0.2 between "
                             "two runs minutes apart)")
    parser.add_argument("--run-rounds", type=int, default=15)
    parser.add_argument("--run-number", type=int, default=10,
                        help="back-to-back calls per timed run sample, their mean (TVM "
                             "time_evaluator's number; 1: a single call after the rest)")
    parser.add_argument("--opt-level", type=int, default=3)
    parser.add_argument("--pause", type=float, default=0.02,
                        help="seconds of rest before each timed parse, print, compile or rebuild "
                             "(default 0.02; a longer rest lets the core go cold before these "
                             "short single-threaded calls)")
    parser.add_argument("--run-pause", type=float, default=0.1,
                        help="seconds of rest before each timed run sample, after which it "
                             "also waits until the CPUs are idle (default 0.1: after a parallel "
                             "call TVM's thread pool keeps a core busy for about 50 ms, spinning "
                             "with sched_yield, libgomp's under 20 ms, OpenBLAS's ~130 ms; "
                             "bench/thread_spin.py measures it)")
    parser.add_argument("--tvm", default=os.environ.get("TIRKIT_BENCH_TVM", ""),
                        help="a Python with apache-tvm installed (default: $TIRKIT_BENCH_TVM)")
    parser.add_argument("--out", type=Path, default=ROOT / "results")
    args = parser.parse_args()
    PAUSE.update(stage=args.pause, run=args.run_pause)
    results = {}
    load_start = list(os.getloadavg())
    with tempfile.TemporaryDirectory(prefix="tirkit-compare-") as tmpdir:
        tmp = Path(tmpdir)
        os.environ["TIRKIT_CACHE_DIR"] = str(tmp / "cache")
        tvm = TVMWorker(args.tvm, ROOT / "tvm_worker.py") if args.tvm else None
        try:
            for entry in args.kernels:
                print(f"  {entry} ...", file=sys.stderr, flush=True)
                results[entry] = bench_kernel(entry, args, tvm, tmp)
            facts = machine_facts(tvm.facts() if tvm else None)
        finally:
            if tvm is not None:
                tvm.close()
    facts["load_average"] = list(os.getloadavg())
    facts["load_average_start"] = load_start
    facts["rounds"] = {"parse/print/rebuild": args.rounds, "compile": args.compile_rounds,
                       "run": args.run_rounds}
    facts["opt_level"] = args.opt_level
    facts["pause_s"] = args.pause
    facts["run_pause_s"] = args.run_pause
    facts["run_settle"] = dict(SETTLE, waited_median_s=statistics.median(SETTLED or [0.0]),
                               waited_max_s=max(SETTLED or [0.0]))
    facts["run_number"] = args.run_number
    print(write_reports(results, facts, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
