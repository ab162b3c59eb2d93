"""How much of tirkit's tirx output Apache TVM 0.27 reads back to the IR it gives itself (issue 10).

For every unit of TVM v0.20's test suite that tirkit parses without an error (static mode, the
units of ``tools/tvm_conformance.py``), two texts go to TVM 0.27 (run in a scratch venv named by
``--tvm-python``; tirkit never imports tvm):

- *reference*: the unit's own source, ported to tirx the way a user would (imports dropped,
  ``T.block`` -> ``T.sblock``, ``T.block_attr`` -> ``T.sblock_attr``, ``T.alloc_buffer`` ->
  ``T.sblock_alloc_buffer``, ``x: T.int32 = v`` -> ``x: T.let[T.int32] = v`` (tirx reads the
  former as a local scalar cell, v0.20 as a let), ``s_tir=True`` on each ``@T.prim_func``
  whose body has a block);
- *ours*: ``tirkit.printer.script(unit.ir, dialect="tirx")``.

TVM parses both with ``tvm.script.from_source`` and compares them with
``tvm_ffi.structural_equal`` (``map_free_vars=True``). A unit counts when TVM parses its reference; the rate is the share of
those whose tirx text parses to an equal IR. Failures are grouped (TVM's message with names and
numbers blanked). Units whose reference TVM 0.27 cannot parse (forms tirx removed: ``T.allocate``,
``T.LetStmt``, ``T.ret`` ...; text that needs its test file's Python context) are counted apart.

Usage::

    .venv/bin/python tools/tvm027_roundtrip.py --tvm-python /work/tvm-venv/bin/python \\
        [--limit N] [--json out.json] [--show FAMILY]

Not run by ``make test``.
"""
from __future__ import annotations

import argparse
import collections
import json
import re
import subprocess
import sys
import textwrap
from typing import Any
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tvm_conformance import GPU, SUITES, family, finish, parsed_units, print_families  # noqa: E402  pylint: disable=wrong-import-position

TVM_SIDE = r'''
import json, sys
import tvm
import tvm_ffi
def parse(text):
    try:
        return tvm.script.from_source(text), None
    except Exception as err:  # noqa: BLE001
        lines = [l for l in str(err).strip().splitlines() if l.strip()]
        said = [l for l in lines if "error" in l.lower()] or lines[-1:]
        return None, f"{type(err).__name__}: {said[0].strip() if said else ''}"[:300]
out = []
for item in json.load(sys.stdin):
    ref, err = parse(item["ref"])
    if ref is None:
        out.append({"status": "no-reference", "why": err})
        continue
    ours, err = parse(item["ours"])
    if ours is None:
        out.append({"status": "ours-rejected", "why": err})
        continue
    try:
        same = tvm_ffi.structural_equal(ref, ours, map_free_vars=True)
    except Exception as err:  # noqa: BLE001
        out.append({"status": "compare-error", "why": str(err)[:300]})
        continue
    out.append({"status": "equal" if same else "differs", "why": ""})
json.dump(out, sys.stdout)
'''

_IMPORT = re.compile(r"^\s*(from|import)\s+\S.*$", re.M)
_ANNOTATED_LET = re.compile(r"(?m)^(\s+\w+): (T\.\w+(?:\([^()\n]*\))?) = ")


def port_to_tirx(src: str) -> str:
    """A v0.20 unit's source spelled in tirx as a user porting it would (module doc)."""
    text = _IMPORT.sub("", src)
    text = text.replace("T.block(", "T.sblock(").replace("T.block_attr(", "T.sblock_attr(")
    text = text.replace("T.alloc_buffer(", "T.sblock_alloc_buffer(")
    # a v0.20 let, ``x: T.int32 = v``, is a local scalar cell in tirx: T.let keeps it a let
    text = _ANNOTATED_LET.sub(r"\1: T.let[\2] = ", text)
    parts = re.split(r"(?m)^(\s*@T\.prim_func(?:\([^\n]*\))?[ \t]*$)", text)
    out = [parts[0]]
    for deco, body in zip(parts[1::2], parts[2::2]):
        if ("T.sblock(" in body or "T.sblock_alloc_buffer(" in body) and "s_tir" not in deco:
            deco = deco.rstrip()
            deco = deco[:-1] + ", s_tir=True)" if deco.endswith(")") else deco + "(s_tir=True)"
            deco = deco.replace("(, ", "(")
        out += [deco, body]
    return "".join(out)


def units_of_tvm_suite(repo: str, tag: str, limit: int, dirs: Any = SUITES["v0.20"][1],
                       port: bool = True) -> list[dict]:
    """Every unit tirkit parses without an error: ``{file, unit, kind, ref, ours}``; the
    reference is the unit's source ported to tirx (``port``), or as it is (a tirx suite)."""
    from tirkit.printer import script  # pylint: disable=import-outside-toplevel

    items = []
    for path, text, unit in parsed_units(repo, tag, dirs, limit):
        start = text.rfind("\n", 0, unit.span.start_offset) + 1
        src = textwrap.dedent(text[start:unit.span.end_offset])
        if "R.function" in src or "@R." in src:
            continue
        try:
            ours = script(unit.ir, dialect="tirx")
        except Exception as err:  # pylint: disable=broad-except
            ours = f"# tirkit could not print: {type(err).__name__}: {err}"
        ref = port_to_tirx(src) if port else _IMPORT.sub("", src)
        items.append({"file": path, "unit": unit.name, "ref": ref,
                      "kind": "gpu" if GPU.search(src) else "cpu",
                      "ours": "\n".join(ln for ln in ours.split("\n")
                                        if not ln.startswith("# from "))})
    return items


def run_tvm(python: str, items: list[dict], chunk: int = 200) -> list[dict]:
    """TVM's verdict per item; a chunk whose worker dies is retried one item at a time."""
    out: list[dict] = []
    for i in range(0, len(items), chunk):
        batch = items[i:i + chunk]
        out += _run_batch(python, batch) if len(batch) == 1 else _run_or_split(python, batch)
    return out


def _run_or_split(python: str, batch: list[dict]) -> list[dict]:
    try:
        return _run_batch(python, batch)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, json.JSONDecodeError):
        return [r for item in batch for r in _run_batch(python, [item])]


def _run_batch(python: str, batch: list[dict]) -> list[dict]:
    payload = json.dumps([{"ref": b["ref"], "ours": b["ours"]} for b in batch])
    try:
        res = subprocess.run([python, "-c", TVM_SIDE], input=payload, capture_output=True,
                             text=True, check=True, timeout=60 + 10 * len(batch))
        return json.loads(res.stdout)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, json.JSONDecodeError):
        if len(batch) > 1:
            raise
        return [{"status": "tvm-crashed", "why": ""}]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", maxsplit=1)[0])
    ap.add_argument("--tvm-python", default="/work/tvm-venv/bin/python")
    ap.add_argument("--repo", default="/work/.mirror/apache+tvm/repo")
    ap.add_argument("--suite", choices=sorted(SUITES), default="v0.20",
                    help="v0.20: TVM v0.20's tests, ported to tirx as a user would; tirx: TVM's "
                    "current tests, already in the tirx spelling (tools/tvm_conformance.py)")
    ap.add_argument("--tag", default=None, help="a git ref of --repo (default: the suite's)")
    ap.add_argument("--limit", type=int, default=0, help="only the first N files")
    ap.add_argument("--json", default=None, help="write the per-unit results here")
    ap.add_argument("--show", default=None, help="print units whose family contains this text")
    args = ap.parse_args()
    t0 = time.perf_counter()
    tag, dirs = SUITES[args.suite]
    items = units_of_tvm_suite(args.repo, args.tag or tag, args.limit, dirs,
                               port=args.suite == "v0.20")
    results = run_tvm(args.tvm_python, items)
    stats: collections.Counter = collections.Counter()
    fams: collections.Counter = collections.Counter()
    for item, res in zip(items, results):
        item.update(res)
        stats[(item["kind"], res["status"])] += 1
        if res["status"] not in ("equal", "no-reference"):
            fam = f"{res['status']}: {family(res['why'])}"
            fams[fam] += 1
            if args.show and args.show in fam:
                print(f"--- {item['file']}:{item['unit']}: {res['why']}")
    for kind in ("cpu", "gpu", "all"):
        def count(status: str, kind: str = kind) -> int:
            return sum(v for (k, s), v in stats.items() if s == status and kind in (k, "all"))
        total = sum(v for (k, _), v in stats.items() if kind in (k, "all"))
        ref = total - count("no-reference")
        print(f"{kind.upper()}: {count('equal')}/{ref} units whose reference TVM 0.27 parses "
              f"read back equal ({100.0 * count('equal') / max(ref, 1):.1f}%); "
              f"{count('no-reference')} more without a reference; {total} tirkit-parsed units")
    print_families(fams, 30)
    return finish(t0, args.json, items)


if __name__ == "__main__":
    sys.exit(main())
