"""Whether tirkit reads its own printing of TVM's tests back to the same IR (no TVM needed).

For every unit of a TVM test suite that tirkit parses without an error (the units of
``tools/tvm_conformance.py``; ``--suite tirx``: TVM's current tests in the tirx spelling of 0.27),
prints the IR in each dialect (``script(ir)``, ``script(ir, dialect="tirx")``), reads the text
back with :func:`tirkit.lang.from_source` and compares with :func:`structural_equal` (free vars
mapped, as TVM's check does). Failures are grouped by the first mismatch's path (numbers
blanked) or the error reading the text back.

Usage::

    .venv/bin/python tools/printer_roundtrip.py [--suite tirx] [--dialects tir tirx]
        [--limit N] [--show FAMILY] [--json out.json]

Not run by ``make test``.
"""
from __future__ import annotations

import argparse
import collections
import re
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tvm_conformance import SUITES, family, finish, parsed_units, print_families  # noqa: E402  pylint: disable=wrong-import-position


_DECORATOR = re.compile(r"(?m)^(\s*@(?:T\.prim_func|I\.ir_module))(?:\((.*)\))?$")


def _unchecked(text: str) -> str:
    """``text`` with ``check_well_formed=False`` on each decorator (the unit's source had it:
    TVM's tests of ill-formed IR; the printer does not spell it, as TVM's does not)."""
    return _DECORATOR.sub(lambda m: f"{m[1]}({m[2] + ', ' if m[2] else ''}"
                          "check_well_formed=False)", text)


def check(ir: Any, dialect: str, well_formed: bool = True) -> str:
    """``"equal"``, or why ``ir`` printed in ``dialect`` does not read back to it (without the
    well-formedness check unless ``well_formed``)."""
    from tirkit.ir import first_mismatch  # pylint: disable=import-outside-toplevel
    from tirkit.lang import from_source  # pylint: disable=import-outside-toplevel
    from tirkit.printer import script  # pylint: disable=import-outside-toplevel

    try:
        text = script(ir, dialect=dialect)
        text = text if well_formed else _unchecked(text)
    except Exception as err:  # pylint: disable=broad-except
        return f"print: {type(err).__name__}: {family(str(err))}"
    try:
        again = from_source(f"from tvm.script import ir as I\nfrom tvm.script import {dialect} as T\n"
                            + text)  # (the printed imports are comments)
    except Exception as err:  # pylint: disable=broad-except
        return f"parse: {type(err).__name__}: {family(str(err).strip().splitlines()[0])}"
    diff = first_mismatch(ir, again, map_free_vars=True)
    if diff is None:
        return "equal"
    return "mismatch: " + re.sub(r"\[\d+\]", "[N]", diff[0]) + \
        f" ({type(diff[1]).__name__} vs {type(diff[2]).__name__})"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", maxsplit=1)[0])
    ap.add_argument("--repo", default="/work/.mirror/apache+tvm/repo")
    ap.add_argument("--suite", choices=sorted(SUITES), default="tirx")
    ap.add_argument("--dialects", nargs="*", default=["tir", "tirx"])
    ap.add_argument("--limit", type=int, default=0, help="only the first N files")
    ap.add_argument("--show", default=None, help="print units whose family contains this text")
    ap.add_argument("--json", default=None, help="write the per-unit results here")
    args = ap.parse_args()
    tag, dirs = SUITES[args.suite]
    t0 = time.perf_counter()
    rows: list[dict] = []
    fams: dict[str, collections.Counter] = {d: collections.Counter() for d in args.dialects}
    for path, text, unit in parsed_units(args.repo, tag, dirs, args.limit):
        src = text[unit.span.start_offset:unit.span.end_offset]
        if "R.function" in src or "@R." in src:
            continue
        row = {"file": path, "unit": unit.name}
        for dialect in args.dialects:
            row[dialect] = status = check(unit.ir, dialect,
                                          "check_well_formed=False" not in src)
            if status != "equal":
                fams[dialect][status] += 1
                if args.show and args.show in status:
                    print(f"--- {dialect} {path}:{unit.name}: {status}")
        rows.append(row)
    for dialect in args.dialects:
        bad = sum(fams[dialect].values())
        print(f"{dialect}: {len(rows) - bad}/{len(rows)} units read back equal; {bad} differ")
        print_families(fams[dialect], 25)
    return finish(t0, args.json, rows)


if __name__ == "__main__":
    sys.exit(main())
