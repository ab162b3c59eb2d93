"""Parse speed on the corpus, now against a baseline commit (issue 10's acceptance: "parse speed
on the corpus stays within 10% of today's").

Both sides parse the *same* texts with :func:`tirkit.lang.parse_file` (static mode):

- ``lang``: the front-end corpus ``tests/lang/cases/*.py`` as it was at ``--texts-rev`` (default:
  the baseline, so neither side reads cases written for the other);
- ``tvm020``: the test files of TVM v0.20 that hold a ``prim_func``/``ir_module`` (the units of
  ``tools/tvm_conformance.py``), read from the local bare clone; ``--tvm-files N`` keeps the
  first N (0: none).

Timing is CPU time of this process (``time.process_time``), best of ``--repeat`` passes after a
warm-up pass, so other jobs on a loaded machine slow it less than wall time would. The baseline
side runs in a subprocess that imports tirkit from ``git archive BASELINE tirkit`` (the same
virtual environment and dependencies; nothing of the repository changes).

Usage::

    .venv/bin/python bench/bench_parse_corpus.py --baseline 5ac6426 [--repeat 5]
        [--tvm-files 150] [--json bench/results/parse_corpus.json]

Not run by ``make test`` (timings are measured here only, never asserted).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from baseline_side import extract_tirkit, run_side  # bench/, the script's directory
REPO = Path(__file__).resolve().parents[1]
TVM_REPO = "/work/.mirror/apache+tvm/repo"
TVM_TAG = "refs/tags/v0.20.0"
TVM_DIRS = ("tvmscript", "tir-transform", "tir-schedule", "tir-base", "tir-analysis",
            "tir-usmp", "codegen", "meta_schedule", "dlight", "arith", "ir", "te",
            "runtime", "target", "driver")


def _git(repo: str | Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True).stdout


def lang_texts(rev: str) -> list[tuple[str, str]]:
    """(name, text) of tests/lang/cases/*.py at ``rev``."""
    names = [n for n in _git(REPO, "ls-tree", "--name-only", rev, "tests/lang/cases/").split()
             if n.endswith(".py")]
    return [(n, _git(REPO, "show", f"{rev}:{n}")) for n in sorted(names)]


def tvm_texts(limit: int, repo: str = TVM_REPO) -> list[tuple[str, str]]:
    """(name, text) of the first ``limit`` TVM v0.20 test files holding TVMScript."""
    if limit <= 0 or not Path(repo).exists():
        return []
    files = [f for f in _git(repo, "ls-tree", "-r", "--name-only", TVM_TAG,
                             "tests/python").split("\n")
             if f.endswith(".py") and f.count("/") >= 3 and f.split("/")[2] in TVM_DIRS]
    out = []
    for path in files:
        text = _git(repo, "show", f"{TVM_TAG}:{path}")
        if "prim_func" in text or "ir_module" in text:
            out.append((path, text))
            if len(out) >= limit:
                break
    return out


def measure(texts: list[tuple[str, str]], repeat: int) -> dict:
    """CPU seconds of one pass of ``parse_file`` over ``texts`` (best and median of
    ``repeat``), and the units and lines parsed."""
    from tirkit.lang import parse_file  # pylint: disable=import-outside-toplevel

    units = sum(len(parse_file(text, name)) for name, text in texts)  # warm-up pass
    times = []
    for _ in range(repeat):
        t0 = time.process_time()
        for name, text in texts:
            parse_file(text, name)
        times.append(time.process_time() - t0)
    times.sort()
    return {"files": len(texts), "units": units, "lines": sum(t.count("\n") for _, t in texts),
            "best_cpu_s": times[0], "median_cpu_s": times[len(times) // 2]}


def _child(args) -> int:
    """Measure with the tirkit found first on sys.path (``--tirkit DIR`` puts DIR there)."""
    corpora = json.load(sys.stdin)
    import tirkit  # pylint: disable=import-outside-toplevel
    out = {"tirkit": str(Path(tirkit.__file__).parent)}
    for name, texts in corpora.items():
        out[name] = measure([tuple(t) for t in texts], args.repeat)
    json.dump(out, sys.stdout)
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", maxsplit=1)[0])
    ap.add_argument("--baseline", default="5ac6426", help="commit before the conformance work")
    ap.add_argument("--texts-rev", default=None, help="tests/lang/cases at this rev (baseline)")
    ap.add_argument("--tvm-files", type=int, default=150)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--json", default=None)
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        return _child(args)
    base = _git(REPO, "rev-parse", "--short", args.baseline).strip()
    corpora = {"lang": lang_texts(args.texts_rev or base), "tvm020": tvm_texts(args.tvm_files)}
    corpora = {k: v for k, v in corpora.items() if v}
    with tempfile.TemporaryDirectory() as tmp:
        extract_tirkit(base, tmp)
        # the order alternates so a load change during the run does not favour one side
        before = run_side(__file__, Path(tmp), corpora, args.repeat)
        now = run_side(__file__, REPO, corpora, args.repeat)
        before2 = run_side(__file__, Path(tmp), corpora, args.repeat)
    head = _git(REPO, "rev-parse", "--short", "HEAD").strip()
    result = {"baseline": base, "head": head, "repeat": args.repeat, "machine": platform.node(),
              "python": platform.python_version(), "loadavg": os.getloadavg(), "corpora": {}}
    for name in corpora:
        b = min(before[name]["best_cpu_s"], before2[name]["best_cpu_s"])
        n = now[name]["best_cpu_s"]
        result["corpora"][name] = {"baseline": before[name], "baseline_again": before2[name],
                                   "head": now[name], "ratio_head_over_baseline": n / b}
        print(f"{name}: {now[name]['files']} files, {now[name]['lines']} lines: baseline "
              f"{base} {b * 1e3:.0f} ms CPU, {head} {n * 1e3:.0f} ms CPU "
              f"(x{n / b:.3f}); units parsed {before[name]['units']} -> {now[name]['units']}")
    print(f"load average {os.getloadavg()}")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
