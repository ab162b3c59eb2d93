"""tirkit benchmarks: ``make bench`` runs every registered benchmark, writes
``bench/results/latest.json`` and ``bench/results/latest.md`` and prints the table.

Each benchmark is a function registered with ``@bench("name", unit)`` returning
``(work_items, callable)``; the runner times the callable (best of ``--repeat`` runs after a
warm-up) and reports time per run and items per second. Timings are measured here only, never
asserted in the unit tests.
"""
from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent))
sys.path.insert(0, str(ROOT.parent / "examples"))

from registry import BENCHES  # noqa: E402
import bench_foundation  # noqa: E402,F401  (registers benchmarks)
import bench_frontend  # noqa: E402,F401
import bench_compiler  # noqa: E402,F401
import bench_lsp  # noqa: E402,F401
import bench_format  # noqa: E402,F401
import bench_schedule  # noqa: E402,F401
import bench_topi  # noqa: E402,F401


def run(names: list[str], repeat: int) -> list[dict]:
    rows = []
    for name in names:
        unit, setup = BENCHES[name]
        items, fn = setup()
        fn()  # warm-up
        times = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
        best = min(times)
        rows.append({"name": name, "unit": unit, "items": items, "best_s": best,
                     "median_s": sorted(times)[len(times) // 2],
                     "items_per_s": items / best if best > 0 else float("inf")})
        print(f"  {name}: {best * 1e3:.2f} ms ({items / best:,.0f} {unit}/s)", file=sys.stderr)
    return rows


def markdown(rows: list[dict]) -> str:
    lines = ["| benchmark | items | best (ms) | median (ms) | throughput |",
             "|---|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['name']} | {r['items']} {r['unit']} | {r['best_s'] * 1e3:.2f} | "
                     f"{r['median_s'] * 1e3:.2f} | {r['items_per_s']:,.0f} {r['unit']}/s |")
    return "\n".join(lines) + "\n" + speedups(rows)


def speedups(rows: list[dict]) -> str:
    """A line ``X: unscheduled / scheduled = Nx`` for every ``X_scheduled`` row that has an
    ``X_unscheduled`` row in the same run."""
    best = {r["name"]: r["best_s"] for r in rows}
    lines = [f"- {name[:-len('_scheduled')]}: {best[base]:.4f} s / {best[name]:.4f} s = "
             f"{best[base] / best[name]:.1f}x faster scheduled"
             for name in best if name.endswith("_scheduled") and not name.endswith("_unscheduled")
             for base in [name[:-len("_scheduled")] + "_unscheduled"] if base in best]
    return "\nSpeed-up of the schedule:\n" + "\n".join(lines) + "\n" if lines else ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("names", nargs="*", help="benchmarks to run (default: all)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--out", type=Path, default=ROOT / "results")
    args = parser.parse_args()
    names = args.names or list(BENCHES)
    unknown = [n for n in names if n not in BENCHES]
    if unknown:
        print(f"unknown benchmark(s): {', '.join(unknown)}; known: {', '.join(BENCHES)}",
              file=sys.stderr)
        return 2
    rows = run(names, args.repeat)
    args.out.mkdir(parents=True, exist_ok=True)
    meta = {"python": platform.python_version(), "machine": platform.machine(),
            "time": time.strftime("%Y-%m-%dT%H:%M:%S")}
    (args.out / "latest.json").write_text(json.dumps({"meta": meta, "results": rows}, indent=2))
    table = markdown(rows)
    (args.out / "latest.md").write_text(table)
    print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
