"""Reports of bench/compare.py: machine facts, the Markdown ratio table, JSON and a PNG chart."""
from __future__ import annotations

import json
import os
import platform
import time
from pathlib import Path

import llvmlite
import llvmlite.binding as llvm
import numpy as np

STAGES = ["parse", "print", "compile", "rebuild", "run"]
LABELS = {"parse": "parse", "print": "print", "compile": "compile + JIT",
          "rebuild": "rebuild (cached)", "run": "run"}


def _cpuinfo() -> dict:
    info = {}
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            key, _, value = line.partition(":")
            key = key.strip()
            if key in ("model name", "flags") and key not in info:
                info[key] = value.strip()
    except OSError:
        pass
    return info


def machine_facts(tvm_facts: dict | None) -> dict:
    """CPU model and flags, core and thread counts, versions, and TVM's (when compared)."""
    import tirkit  # pylint: disable=import-outside-toplevel

    cpu = _cpuinfo()
    return {"cpu": cpu.get("model name", platform.processor()),
            "llvm_host_cpu": llvm.get_host_cpu_name(),
            "flags": cpu.get("flags", ""), "cores": os.cpu_count(),
            "threads": int(os.environ.get("OMP_NUM_THREADS", "0") or 0),
            "python": platform.python_version(), "numpy": np.__version__,
            "llvmlite": llvmlite.__version__, "llvm": ".".join(map(str, llvm.llvm_version_info)),
            "tirkit": tirkit.__version__, "tvm": tvm_facts,
            "load_average": list(os.getloadavg()),
            "time": time.strftime("%Y-%m-%dT%H:%M:%S%z")}


def _ms(s: float | None) -> str:
    return "–" if s is None else f"{s * 1e3:.3g}" if s < 0.1 else f"{s * 1e3:.0f}"


def _load(facts: dict) -> str:
    """The 1-minute load average at the start and the end of the run."""
    start = facts.get("load_average_start")
    end = f"{facts['load_average'][0]:.1f} at the end"
    return f"{start[0]:.1f} at the start, {end}" if start else end


def ratio(row: dict, other: str) -> float | None:
    """tirkit's median over ``other``'s (TVM or NumPy), or None when not measured."""
    if other not in row or not row[other]:
        return None
    return row["tirkit"] / row[other]


def _settle_text(facts: dict) -> str:
    """How a run sample waited for idle CPUs after its rest (compare.py's ``SETTLE``)."""
    settle = facts.get("run_settle")
    if not settle:
        return ""
    return (f", then until under {settle['busy']} of a CPU was busy over "
            f"{settle['window'] * 1e3:.0f} ms, at most {settle['limit']:.0f} s: waited "
            f"{settle['waited_median_s'] * 1e3:.0f} ms median, "
            f"{settle['waited_max_s'] * 1e3:.0f} ms at most")


def markdown(results: dict, facts: dict) -> str:
    """The ratio table: one row per kernel, per stage ``tirkit ms / other ms (ratio)``."""
    other = "tvm" if facts.get("tvm") else "numpy"
    title = "TVM " + facts["tvm"]["tvm"] if facts.get("tvm") else "NumPy (run only)"
    lines = [f"# tirkit vs {title}", "",
             f"Medians of interleaved rounds ({facts['rounds']}), one run, "
             f"{facts['cpu']} ({facts['cores']} cores, {facts['threads']} threads, "
             f"-mcpu={facts['llvm_host_cpu']}; load average {_load(facts)} from other "
             f"processes), tirkit opt_level {facts['opt_level']}, "
             f"{facts.get('pause_s', 0) * 1e3:.0f} ms rest before each timed call "
             f"({facts.get('run_pause_s', facts.get('pause_s', 0)) * 1e3:.0f} ms before a run "
             f"sample{_settle_text(facts)}); CPU time "
             "of the calling thread for parse, print, compile and rebuild, wall time for run "
             f"(each sample the mean of {facts.get('run_number', 1)} back-to-back calls, as "
             "TVM's time_evaluator number). "
             f"Cells: tirkit ms / {other} ms = ratio (< 1: tirkit faster).", ""]
    lines.append("| kernel | " + " | ".join(LABELS[s] for s in STAGES) + " | run vs NumPy |")
    lines.append("|---" * (len(STAGES) + 2) + "|")
    for name, stages in results.items():
        cells = []
        for stage in STAGES:
            row = stages.get(stage, {})
            r = ratio(row, "tvm") if stage != "rebuild" else None
            if r is None:
                cells.append(_ms(row.get("tirkit")) + " ms" + (" (TVM: none)"
                                                               if stage == "rebuild" else ""))
            else:
                cells.append(f"{_ms(row['tirkit'])} / {_ms(row['tvm'])} = **{r:.2f}**")
        run = stages["run"]
        cells.append(f"{_ms(run['tirkit'])} / {_ms(run['numpy'])} = **{ratio(run, 'numpy'):.2f}**")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines += ["", "tirkit's arrays: NumPy's own (np.array copies; "
              + ", ".join(f"{k}: {v['run']['aligned64']}/{v['run']['arrays']} 64-byte aligned"
                          for k, v in results.items()) + ")."]
    if facts.get("tvm"):
        lines.append("TVM's arrays: its own 64-byte-aligned tensors (it refuses NumPy's), copied "
                     "once outside the timed calls.")
        lines.append("TVM's compile + JIT: ``tvm.compile`` plus the first ``mod[name]``, where "
                     "TVM's LLVM module generates its machine code (lazily; tirkit's ``build`` "
                     "does it eagerly).")
    return "\n".join(lines) + "\n"


def chart(results: dict, facts: dict, path: Path) -> bool:
    """A grouped bar chart of the ratios (log scale, 1.0 marked); False without matplotlib."""
    try:
        import matplotlib  # pylint: disable=import-outside-toplevel
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt  # pylint: disable=import-outside-toplevel
    except ImportError:
        return False
    other = "tvm" if facts.get("tvm") else "numpy"
    stages = [s for s in STAGES if s != "rebuild"] if other == "tvm" else ["run"]
    names = list(results)
    fig, ax = plt.subplots(figsize=(10, 4.5))
    width = 0.8 / len(stages)
    for k, stage in enumerate(stages):
        values = [ratio(results[n][stage], other) or 0.0 for n in names]
        ax.bar(np.arange(len(names)) + k * width, values, width, label=LABELS[stage])
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_yscale("log")
    ax.set_xticks(np.arange(len(names)) + width * (len(stages) - 1) / 2, names)
    ax.set_ylabel(f"tirkit time / {other} time")
    ax.set_title(f"tirkit vs {other} (median of interleaved rounds; < 1: tirkit faster)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


def write_reports(results: dict, facts: dict, out: Path) -> str:
    """compare.md, compare.json and compare.png under ``out``; returns the Markdown."""
    out.mkdir(parents=True, exist_ok=True)
    table = markdown(results, facts)
    (out / "compare.md").write_text(table)
    (out / "compare.json").write_text(json.dumps({"machine": facts, "results": results},
                                                 indent=2))
    chart(results, facts, out / "compare.png")
    return table
