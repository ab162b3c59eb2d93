"""``make bench`` charts (matplotlib, PNG): the tables of ``bench/results/latest.json`` drawn.

- ``kernels.png``: time per call of every ``run_X`` kernel next to ``numpy_X`` (and ``tvm_X``
  where a benchmark with that name was run, e.g. from a scratch TVM venv), log scale;
- ``compile.png``: total compile time of each example kernel (``compile_X`` rows);
- ``stages.png``: the time of every pipeline stage for each example kernel (measured here by the
  pipeline's own stage records, ``StageResult.seconds``), stacked per kernel.

    python bench/charts.py [--results bench/results/latest.json] [--out bench/results]

Nothing is asserted about the numbers; tests/test_bench_charts.py only checks that the charts
are drawn from a results file.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent))
sys.path.insert(0, str(ROOT.parent / "examples"))


def _pyplot() -> Any:
    import matplotlib  # pylint: disable=import-outside-toplevel

    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt  # pylint: disable=import-outside-toplevel

    return plt


def kernel_times(rows: list[dict]) -> dict[str, dict[str, float]]:
    """``{kernel: {"tirkit": ms, "NumPy": ms, "TVM": ms}}`` from ``run_/numpy_/tvm_`` rows."""
    by = {r["name"]: r["best_s"] * 1e3 for r in rows}
    out: dict[str, dict[str, float]] = {}
    for name, ms in by.items():
        if name.startswith("run_"):
            k = name[4:]
            out[k] = {"tirkit": ms}
            for prefix, label in (("numpy_", "NumPy"), ("tvm_", "TVM")):
                if prefix + k in by:
                    out[k][label] = by[prefix + k]
    return out


def plot_kernels(rows: list[dict], path: Path) -> Path | None:
    """Grouped bars, one group per kernel; None when the results have no ``run_`` rows."""
    data = kernel_times(rows)
    if not data:
        return None
    plt = _pyplot()
    labels = [lab for lab in ("tirkit", "NumPy", "TVM") if any(lab in v for v in data.values())]
    fig, ax = plt.subplots(figsize=(max(6, 1.4 * len(data)), 4))
    width = 0.8 / len(labels)
    for i, lab in enumerate(labels):
        xs = [j + i * width for j in range(len(data))]
        ys = [v.get(lab, 0) for v in data.values()]
        ax.bar(xs, ys, width, label=lab)
    ax.set_xticks([j + width * (len(labels) - 1) / 2 for j in range(len(data))])
    ax.set_xticklabels(list(data), rotation=20, ha="right")
    ax.set_yscale("log")
    ax.set_ylabel("ms per call (best, log scale)")
    ax.set_title("kernel time: tirkit next to NumPy")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def plot_compile(rows: list[dict], path: Path) -> Path | None:
    """Horizontal bars of ``compile_X`` times; None without such rows."""
    data = {r["name"][8:]: r["best_s"] * 1e3 for r in rows if r["name"].startswith("compile_")}
    if not data:
        return None
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 0.45 * len(data) + 1.2))
    ax.barh(list(data), list(data.values()), color="#5c6bc0")
    ax.set_xlabel("ms (parse + pipeline + LLVM + JIT, best)")
    ax.set_title("compile time per example kernel")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def stage_times(files: list[Path] | None = None) -> dict[str, dict[str, float]]:
    """``{kernel: {stage: ms}}``: one pipeline run per example kernel, the stage records' times
    (a stage name that occurs twice, e.g. Simplify, is summed)."""
    from references import KERNELS  # pylint: disable=import-outside-toplevel
    from tirkit.compiler.pipeline import run_pipeline  # pylint: disable=import-outside-toplevel
    from tirkit.lang import from_source  # pylint: disable=import-outside-toplevel

    paths = files or [k.path for k in KERNELS]
    out: dict[str, dict[str, float]] = {}
    for path in paths:
        stages: dict[str, float] = {}
        for r in run_pipeline(from_source(path.read_text(), str(path)))[1:]:
            stages[r.name] = stages.get(r.name, 0.0) + r.seconds * 1e3
        out[path.stem] = stages
    return out


def plot_stages(times: dict[str, dict[str, float]], path: Path, top: int = 9) -> Path:
    """Stacked bars: the ``top`` costliest stages by name, the rest as "other"."""
    plt = _pyplot()
    total: dict[str, float] = {}
    for stages in times.values():
        for name, ms in stages.items():
            total[name] = total.get(name, 0.0) + ms
    named = sorted(total, key=total.get, reverse=True)[:top]  # type: ignore[arg-type]
    fig, ax = plt.subplots(figsize=(max(6, 1.2 * len(times)), 4.5))
    bottom = [0.0] * len(times)
    for name in [*named, "other"]:
        ys = [sum(ms for n, ms in st.items() if n not in named) if name == "other"
              else st.get(name, 0.0) for st in times.values()]
        ax.bar(list(times), ys, bottom=bottom, label=name)
        bottom = [b + y for b, y in zip(bottom, ys)]
    ax.set_ylabel("ms")
    ax.set_title("pipeline time per stage")
    ax.tick_params(axis="x", rotation=20)
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def main(argv: list[str] | None = None) -> int:
    """Draw every chart the results allow; print the files written."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--results", type=Path, default=ROOT / "results" / "latest.json")
    parser.add_argument("--out", type=Path, default=ROOT / "results")
    parser.add_argument("--no-stages", action="store_true", help="skip the stage-time chart")
    args = parser.parse_args(argv)
    rows = json.loads(args.results.read_text())["results"] if args.results.exists() else []
    args.out.mkdir(parents=True, exist_ok=True)
    written = [plot_kernels(rows, args.out / "kernels.png"),
               plot_compile(rows, args.out / "compile.png")]
    if not args.no_stages:
        written.append(plot_stages(stage_times(), args.out / "stages.png"))
    for path in written:
        if path is not None:
            print(f"chart: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
