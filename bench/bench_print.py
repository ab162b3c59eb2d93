"""Print speed (``.script()``) of the six kernels of bench/compare.py, now against a baseline
commit, in one command (issue 18's acceptance: print <= 2x TVM's C++ printer).

Both sides print the *same* functions: the kernels' tirx text (``compare.tirx_text``, made once
by this checkout) parsed by each side's own ``from_source``, then ``.script()`` timed call by
call in CPU time of the calling thread (``time.thread_time``, as compare.py times print). The
baseline side runs in a subprocess that imports tirkit from ``git archive BASELINE tirkit`` (the
same virtual environment); the two sides run in alternating rounds (baseline, head, head,
baseline, ...) so a load change during the run favours neither. Reported per kernel: the median
and the best over all calls of all rounds, and head / baseline of the medians. With ``--tvm
PYTHON`` (a Python with apache-tvm, as ``TIRKIT_BENCH_TVM`` for compare.py) TVM's ``.script()``
of the same texts is timed too, in each round after the two sides (bench/tvm_worker.py), and
head / TVM of the medians is reported: issue 18's print ratio, measured in the same command.

Usage::

    .venv/bin/python bench/bench_print.py --baseline main [--rounds 6] [--repeat 40]
        [--tvm /work/tvm-venv/bin/python]

Not run by ``make test`` (timings are measured here only, never asserted).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from baseline_side import extract_tirkit, run_side  # bench/, the script's directory
REPO = Path(__file__).resolve().parents[1]


def _child(repeat: int) -> int:
    """Time ``repeat`` ``.script()`` calls of each text read from stdin (``{name: text}``) with
    the tirkit found first on sys.path; print ``{"tirkit": dir, name: [seconds...]}``."""
    import tirkit  # pylint: disable=import-outside-toplevel
    from tirkit.lang import from_source  # pylint: disable=import-outside-toplevel

    texts = json.load(sys.stdin)
    funcs = {name: from_source(text) for name, text in texts.items()}
    out: dict = {"tirkit": str(Path(tirkit.__file__).parent)}
    for f in funcs.values():  # warm-up: caches of the dispatch tables, first-call imports
        for _ in range(3):
            f.script()
    times: dict[str, list[float]] = {name: [] for name in funcs}
    for _ in range(repeat):
        for name, f in funcs.items():
            t0 = time.thread_time()
            f.script()
            times[name].append(time.thread_time() - t0)
    out.update(times)
    json.dump(out, sys.stdout)
    return 0


def kernel_texts() -> dict[str, str]:
    """``{kernel: tirx text}`` of compare.py's kernels (as both sides of compare.py parse)."""
    sys.path.insert(0, str(REPO / "bench"))
    sys.path.insert(0, str(REPO / "examples"))
    sys.path.insert(0, str(REPO))
    from compare import KERNELS, tirx_text  # pylint: disable=import-outside-toplevel

    return {k: tirx_text(k) for k in KERNELS}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", maxsplit=1)[0])
    ap.add_argument("--baseline", default="main", help="commit to compare with")
    ap.add_argument("--rounds", type=int, default=6, help="child processes per side")
    ap.add_argument("--repeat", type=int, default=40, help="calls per kernel per round")
    ap.add_argument("--tvm", default=os.environ.get("TIRKIT_BENCH_TVM", ""),
                    help="a Python with apache-tvm: time TVM's print too")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        return _child(args.repeat)

    def git(*a: str) -> str:
        return subprocess.run(["git", "-C", str(REPO), *a], check=True, capture_output=True,
                              text=True).stdout.strip()
    base = git("rev-parse", "--short", args.baseline)
    head = git("rev-parse", "--short", "HEAD") + ("+dirty" if git("status", "--porcelain",
                                                                  "tirkit") else "")
    texts = kernel_texts()
    load0 = os.getloadavg()
    runs: dict[str, list[dict]] = {"base": [], "head": [], "tvm": []}
    tvm = None
    if args.tvm:
        from tvm_side import TVMWorker  # pylint: disable=import-outside-toplevel

        tvm = TVMWorker(args.tvm, REPO / "bench" / "tvm_worker.py")
        for k, text in texts.items():
            tvm.load(k, text)
            for _ in range(3):
                tvm.timed("print", k)
    with tempfile.TemporaryDirectory() as tmp:
        extract_tirkit(base, tmp)
        sides = {"base": Path(tmp), "head": REPO}
        for r in range(args.rounds):
            order = ("base", "head") if r % 2 == 0 else ("head", "base")
            for side in order:
                runs[side].append(run_side(__file__, sides[side], texts, args.repeat))
            if tvm is not None:
                times: dict[str, list[float]] = {k: [] for k in texts}
                for _ in range(args.repeat):
                    for k in texts:
                        times[k].append(tvm.timed("print", k))
                runs["tvm"].append(times)
    if tvm is not None:
        tvm.close()
    print(f"print (.script()) CPU ms per call, {args.rounds} rounds x {args.repeat} calls per "
          f"side, alternating; baseline {base}, head {head}; load {load0} -> {os.getloadavg()}")
    tvm_cols = f" {'tvm med':>8} {'base/tvm':>8} {'head/tvm':>8}" if tvm is not None else ""
    print(f"{'kernel':18} {'base med':>9} {'head med':>9} {'base best':>10} {'head best':>10} "
          f"{'head/base':>9}" + tvm_cols)
    for k in texts:
        b = [t for run in runs["base"] for t in run[k]]
        h = [t for run in runs["head"] for t in run[k]]
        bm, hm = statistics.median(b), statistics.median(h)
        row = (f"{k:18} {bm * 1e3:9.3f} {hm * 1e3:9.3f} {min(b) * 1e3:10.3f} "
               f"{min(h) * 1e3:10.3f} {hm / bm:9.3f}")
        if tvm is not None:
            tm = statistics.median([t for run in runs["tvm"] for t in run[k]])
            row += f" {tm * 1e3:8.3f} {bm / tm:8.2f} {hm / tm:8.2f}"
        print(row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
