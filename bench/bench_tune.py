"""Auto-tuning benchmark (issue 14): tune the kernels that examples/ also schedules by hand —
the naive 1024^3 matmul, conv2d (1x64x56x56, 3x3) and row softmax (4096x1024) — for
``--trials`` candidates each (default 200), then time in the same run, on the same inputs: the
tuned kernel, the hand-written schedule of examples/ and NumPy. Prints a table (ms per call,
GFLOP/s, tuned vs hand-written) and the wall time of each tuning run; ``--json`` writes it.

    .venv/bin/python bench/bench_tune.py [--trials 200] [--workers 1] [--only matmul_naive]
                                         [--backend local|ray] [--db bench-tune.sqlite]

Tuning records go to ``--db`` (default ``bench-tune.sqlite``); a second run with the same db
starts its search from the best records (MetaSchedule's warm start). Timings are the median of
``--repeat`` calls after one warm-up call.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "examples"))

import scheduled  # noqa: E402  pylint: disable=wrong-import-position
from references import BY_ENTRY  # noqa: E402  pylint: disable=wrong-import-position

from tirkit.compiler import build  # noqa: E402  pylint: disable=wrong-import-position
from tirkit.tune import (Database, LocalBackend, RayBackend,  # noqa: E402  pylint: disable=C0413
                         tune_tir)

WORKLOADS = ("matmul_naive", "conv2d_nchw", "softmax")


def _median_secs(fn, args, repeat: int) -> float:
    fn(*args)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def _numpy_secs(kernel, args, repeat: int) -> float:
    return _median_secs(lambda *a: kernel.numpy_op(list(a)), args, repeat)


def bench_one(item, args) -> dict:
    """Tune one workload, then time tuned / hand-written / NumPy on the same inputs."""
    mod = scheduled.kernel_module(item)
    func = mod[item.entry]
    kernel = BY_ENTRY[item.reference]
    backend = RayBackend(args.ray_address, timeout=args.timeout) if args.backend == "ray" \
        else LocalBackend(args.workers, args.timeout)

    def progress(done, valid, best):
        print(f"  {item.entry}: {done}/{args.trials} measured, {valid} valid, "
              f"best {best * 1e3:.3f} ms", file=sys.stderr, flush=True)
    try:
        with Database(args.db) as db:
            result = tune_tir(func, trials=args.trials, seed=args.seed, backend=backend,
                              database=db, batch=args.batch, progress=progress,
                              patience=args.patience)
    finally:
        backend.close()
    inputs = kernel.inputs(np.random.default_rng(0))
    tuned = build(result.best_func(func))
    hand = build(scheduled.apply(item).mod, opt_level=3)[item.entry]
    row = {"workload": item.entry, "trials": len(result.history),
           "valid": sum(1 for _, r in result.history if r.ok),
           "tune_wall_s": round(result.wall_secs, 1),
           "tuned_ms": _median_secs(tuned, inputs, args.repeat) * 1e3,
           "hand_ms": _median_secs(hand, inputs, args.repeat) * 1e3,
           "numpy_ms": _numpy_secs(kernel, inputs, args.repeat) * 1e3,
           "flops": kernel.flops}
    row["tuned_vs_hand"] = row["hand_ms"] / row["tuned_ms"]
    return row


def main() -> int:
    """Run the benchmark and print the table."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--trials", type=int, default=200)
    p.add_argument("--only", action="append", choices=WORKLOADS)
    p.add_argument("--backend", choices=("local", "ray"), default="local")
    p.add_argument("--ray-address")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--batch", type=int, default=16)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--patience", type=int, default=0,
                   help="rounds without improvement before stopping early (0: all trials)")
    p.add_argument("--timeout", type=float, default=60.0)
    p.add_argument("--repeat", type=int, default=10)
    p.add_argument("--db", default="bench-tune.sqlite")
    p.add_argument("--json", help="also write the rows to this JSON file")
    args = p.parse_args()
    rows = []
    for item in scheduled.SCHEDULES:
        if item.entry in (args.only or WORKLOADS):
            rows.append(bench_one(item, args))
            _print([rows[-1]])
    print("\nsummary")
    _print(rows)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return 0


def _print(rows) -> None:
    print(f"{'workload':14} {'trials':>6} {'valid':>5} {'tune s':>8} {'tuned ms':>9} "
          f"{'hand ms':>9} {'numpy ms':>9} {'tuned GF/s':>10} {'hand/tuned':>10}")
    for r in rows:
        gf = r["flops"] / (r["tuned_ms"] / 1e3) / 1e9 if r["flops"] else float("nan")
        print(f"{r['workload']:14} {r['trials']:>6} {r['valid']:>5} {r['tune_wall_s']:>8.1f} "
              f"{r['tuned_ms']:>9.3f} {r['hand_ms']:>9.3f} {r['numpy_ms']:>9.3f} {gf:>10.2f} "
              f"{r['tuned_vs_hand']:>10.2f}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
