"""Measure how much of TVM's own TVMScript tirkit parses (issue 10).

Reads the test files of TVM v0.20 (``--suite v0.20``, the default) or of TVM's current main in
the tirx spelling of 0.27 (``--suite tirx``; ``--suite tirx-dsl`` for its new kernel language)
from a local bare clone at run time (nothing of TVM is
committed here), parses every file with :func:`tirkit.lang.parse_file` in static mode, and
reports the share of ``@T.prim_func`` / ``@I.ir_module`` units that parse without a diagnostic,
split into CPU units and GPU units (a unit naming threadIdx/blockIdx/cuda/warp ...), and the
failure families (diagnostic message with names and numbers blanked out).

Units that use Python values only known when the test runs (a closure variable, a helper
function) are counted apart as "needs execution": TVM itself only parses those in decorator
mode. Relax modules (``R.function``) are skipped.

Usage::

    python tools/tvm_conformance.py [--repo /work/.mirror/apache+tvm/repo]
        [--suite v0.20|tirx|tirx-dsl] [--tag REF] [--dirs tvmscript tir-transform ...]
        [--show FAMILY] [--json out.json]

Not needed by ``make test``.
"""
from __future__ import annotations

import argparse
import collections
import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Iterator

DEFAULT_DIRS = ("tvmscript", "tir-transform", "tir-schedule", "tir-base", "tir-analysis",
                "tir-usmp", "codegen", "meta_schedule", "dlight", "arith", "ir", "te",
                "runtime", "target", "driver")
#: --suite presets: (git ref, directories of tests/python). "tirx" and "tirx-dsl" read the
#: mirror's HEAD (TVM main after 0.27: classic TIR in the tirx spelling, and the new kernel DSL)
SUITES = {
    "v0.20": ("refs/tags/v0.20.0", DEFAULT_DIRS),
    "tirx": ("HEAD", ("tvmscript", "tirx-transform", "tirx-base", "tirx-analysis", "s_tir",
                      "codegen", "arith", "ir", "te", "target")),
    "tirx-dsl": ("HEAD", ("tirx",)),
}
GPU = re.compile(r"threadIdx|blockIdx|vthread|\"cuda|cuda\.|warp|\"shared|shared\.dyn|"
                 r"ptx_|mma_sync|tvm_load_matrix_sync|metal|rocm|vulkan|opencl|webgpu")
NOT_STATIC = re.compile(r"not known statically|is not defined|undefined name")


def git(repo: str, *args: str) -> str:
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True,
                          text=True).stdout


def family(message: str) -> str:
    msg = re.sub(r"'[^']*'", "'_'", message)
    msg = re.sub(r"\"[^\"]*\"", '"_"', msg)
    msg = re.sub(r"\b\d+\b", "N", msg)
    return msg[:110]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repo", default="/work/.mirror/apache+tvm/repo")
    ap.add_argument("--suite", choices=sorted(SUITES), default="v0.20",
                    help="a preset of --tag and --dirs: v0.20 (TVM v0.20's tests, classic "
                    "spelling), tirx (TVM's current tests of the IR in the tirx spelling of "
                    "0.27), tirx-dsl (its tests/python/tirx: the TIRx kernel language, "
                    "T.device_entry, tiles, layouts)")
    ap.add_argument("--tag", default=None, help="a git ref of --repo (default: the suite's)")
    ap.add_argument("--dirs", nargs="*", default=None, help="directories of tests/python "
                    "(default: the suite's)")
    ap.add_argument("--show", default=None, help="print units whose family contains this text")
    ap.add_argument("--json", default=None, help="write the per-unit results here")
    ap.add_argument("--limit", type=int, default=0, help="only the first N files (quick runs)")
    args = ap.parse_args()
    suite_tag, suite_dirs = SUITES[args.suite]
    args.tag = args.tag or suite_tag
    args.dirs = args.dirs or suite_dirs

    from tirkit.lang import parse_file  # pylint: disable=import-outside-toplevel

    files = [f for f in git(args.repo, "ls-tree", "-r", "--name-only", args.tag,
                            "tests/python").split("\n")
             if f.endswith(".py") and f.split("/")[2] in args.dirs]
    if args.limit:
        files = files[:args.limit]
    stats = collections.Counter()
    families: dict[str, collections.Counter] = {"cpu": collections.Counter(),
                                                 "gpu": collections.Counter()}
    examples: dict[str, str] = {}
    rows = []
    t0 = time.perf_counter()
    for path in files:
        text = git(args.repo, "show", f"{args.tag}:{path}")
        if "prim_func" not in text and "ir_module" not in text:
            continue
        try:
            units = parse_file(text, path)
        except Exception as err:  # pylint: disable=broad-except
            stats["crash_files"] += 1
            print(f"CRASH {path}: {type(err).__name__}: {err}", file=sys.stderr)
            continue
        for unit in units:
            if unit.kind == "file":
                continue
            src = text[unit.span.start_offset:unit.span.end_offset] if unit.span else ""
            if "R.function" in src or "@R." in src:
                continue
            kind = "gpu" if GPU.search(src) else "cpu"
            errors = [d for d in unit.diagnostics if d.severity == 1]
            stats[f"{kind}_units"] += 1
            if not errors and unit.ir is not None:
                stats[f"{kind}_ok"] += 1
                status = "ok"
            elif all(NOT_STATIC.search(d.message) for d in errors):
                stats[f"{kind}_needs_execution"] += 1
                status = "needs-execution"
            else:
                fam = family(errors[0].message) if errors else "no IR, no error"
                families[kind][fam] += 1
                examples.setdefault(fam, f"{path}:{unit.name}: {errors[0].message if errors else ''}"
                                    f" @ line {errors[0].span.line if errors and errors[0].span else '?'}")
                status = fam
                if args.show and args.show in fam:
                    line = errors[0].span.line if errors and errors[0].span else 0
                    print(f"--- {path}:{line} {unit.name}: {errors[0].message if errors else ''}")
            rows.append({"file": path, "unit": unit.name, "kind": kind, "status": status})
    elapsed = time.perf_counter() - t0
    for kind in ("cpu", "gpu"):
        n, ok = stats[f"{kind}_units"], stats[f"{kind}_ok"]
        ne = stats[f"{kind}_needs_execution"]
        static = n - ne
        print(f"{kind.upper()}: {ok}/{static} static units parse ({100.0 * ok / max(static, 1):.1f}%);"
              f" {ne} more need execution (closure values); {n} units in all")
        for fam, count in families[kind].most_common(40):
            print(f"  {count:4d}  {fam}\n        e.g. {examples[fam][:200]}")
    print(f"{len(files)} files in {elapsed:.1f}s; crashed files: {stats['crash_files']}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(rows, fh, indent=1)
    return 0


def parsed_units(repo: str, tag: str, dirs: Any, limit: int = 0) -> Iterator[tuple[str, str, Any]]:
    """``(path, text, unit)`` of every TVMScript unit tirkit parses without an error in the test
    files of ``dirs`` (of ``tests/python`` at ``tag``), the first ``limit`` files (0: all)."""
    from tirkit.lang import parse_file  # pylint: disable=import-outside-toplevel

    files = [f for f in git(repo, "ls-tree", "-r", "--name-only", tag, "tests/python").split("\n")
             if f.endswith(".py") and f.split("/")[2] in dirs]
    for path in files[:limit or None]:
        text = git(repo, "show", f"{tag}:{path}")
        if "prim_func" not in text and "ir_module" not in text:
            continue
        try:
            units = parse_file(text, path)
        except Exception:  # pylint: disable=broad-except
            continue
        for unit in units:
            if unit.kind != "file" and unit.ir is not None and unit.span is not None \
                    and not any(d.severity == 1 for d in unit.diagnostics):
                yield path, text, unit


def print_families(families: Any, top: int) -> None:
    """The ``top`` most common failure families of a ``Counter``, one line each."""
    for fam, n in families.most_common(top):
        print(f"  {n:4d}  {str(fam)[:160]}")


def finish(t0: float, json_path: str | None, rows: Any) -> int:
    """The end of a conformance tool's run: the seconds since ``t0``, and ``rows`` written to
    ``json_path`` when one is given; the exit status 0."""
    print(f"{time.perf_counter() - t0:.0f}s")
    if json_path:
        Path(json_path).write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
