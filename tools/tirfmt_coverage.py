"""Measure how much of TVM's own TVMScript ``tirfmt`` formats (and why it leaves the rest).

Reads TVM's Python test files whose path holds ``tir`` (``tests/python/**``) at a git ref from a
local bare clone at run time (nothing of TVM is committed here), keeps the files that hold
``T.prim_func``, formats each with :func:`tirkit.cli.tirfmt_format.format_source` (safe mode:
the result is verified) and reports how many files would change, how many units are left as
they are and why (``formatting would lose 'X'``: the house rule that a formatter changes layout,
never what the user wrote, see :mod:`tirkit.cli.tirfmt_keep`), and any verification errors
(those are tirfmt bugs). Numbers in reasons are blanked out.

Usage::

    python tools/tirfmt_coverage.py [--repo /work/.mirror/apache+tvm/repo]
        [--ref refs/tags/v0.20.0] [--limit N] [--show WORD] [--top 25]

``--limit N`` reads the first N matching files (in ``git ls-tree`` order, before the
``T.prim_func`` filter); ``--show WORD`` prints each unit that would lose ``'WORD'`` (file and
line) to find examples. Not needed by ``make test``.
"""
from __future__ import annotations

import argparse
import collections
import re
import subprocess
import sys
import time

from tirkit.cli.tirfmt_format import Mode, format_source

LOSE = re.compile(r"formatting would lose (.*)$")


def git(repo: str, *args: str) -> str:
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True,
                          text=True).stdout


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--repo", default="/work/.mirror/apache+tvm/repo")
    ap.add_argument("--ref", default="refs/tags/v0.20.0")
    ap.add_argument("--limit", type=int, default=0, help="first N files only (0: all)")
    ap.add_argument("--show", help="list the units that would lose this word")
    ap.add_argument("--top", type=int, default=25)
    args = ap.parse_args(argv)

    names = git(args.repo, "ls-tree", "-r", "--name-only", args.ref, "tests/python").split()
    names = [n for n in names if n.endswith(".py") and "tir" in n]
    if args.limit:
        names = names[:args.limit]
    reasons: collections.Counter[str] = collections.Counter()
    lost: collections.Counter[str] = collections.Counter()
    files = changed = errors = 0
    start = time.perf_counter()
    for name in names:
        src = git(args.repo, "show", f"{args.ref}:{name}")
        if "T.prim_func" not in src:
            continue
        files += 1
        try:
            result = format_source(src, name, Mode())
        except Exception as err:  # pylint: disable=broad-except  # counted: a tirfmt bug
            reasons[f"EXCEPTION {type(err).__name__}"] += 1
            continue
        changed += result.changed
        for e in result.errors:
            errors += 1
            print("ERROR", e.splitlines()[0][:300], file=sys.stderr)
        for note in result.notes:
            why = re.sub(r"^.*?left as it is: ", "", note)
            m = LOSE.search(why)
            if m:
                lost[m.group(1)] += 1
                if args.show is not None and m.group(1) == repr(args.show):
                    print("  ", note.split(" left as it is")[0])
                why = "formatting would lose a word"
            reasons[re.sub(r"\d+", "N", why)[:110]] += 1
    print(f"{args.ref}: {files} files with T.prim_func, {changed} would change, "
          f"{errors} verification errors ({time.perf_counter() - start:.0f} s)")
    print(f"units left as they are, by reason ({sum(reasons.values())}):")
    for why, n in reasons.most_common(args.top):
        print(f"{n:6d}  {why}")
    print(f"'formatting would lose X', by X ({sum(lost.values())}):")
    for word, n in lost.most_common(args.top):
        print(f"{n:6d}  {word}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
