"""tirfmt throughput next to black's on the same files, in the same run (issue 4), and on one
big generated unit (per-statement cost: a 20,000-statement prim_func took 43 s of CPU before
3a9d399/aa669f9, 13 s after)."""
from __future__ import annotations

from pathlib import Path

from registry import bench

from tirkit.cli.tirfmt_format import Mode, format_source

CASES = sorted((Path(__file__).resolve().parents[1] / "tests" / "lang" / "cases").glob("*.py"))
TEXTS = [(str(p), p.read_text(encoding="utf-8")) for p in CASES]
LINES = sum(t.count("\n") for _, t in TEXTS)
BIG_STATEMENTS = 2000
BIG = ("from tvm.script import tir as T\n\n\n@T.prim_func\n"
       "def f(A: T.Buffer((4,), \"int32\")):\n"
       + "".join(f"    A[{i % 4}] = A[0] + {i}\n" for i in range(BIG_STATEMENTS)))


@bench("tirfmt_safe_lines", "lines")
def tirfmt_safe():
    def run():
        for path, text in TEXTS:
            format_source(text, path, Mode(safe=True))
    return LINES, run


@bench("tirfmt_fast_lines", "lines")
def tirfmt_fast():
    def run():
        for path, text in TEXTS:
            format_source(text, path, Mode(safe=False))
    return LINES, run


@bench("tirfmt_safe_big_unit_statements", "statements")
def tirfmt_safe_big_unit():
    """One prim_func of BIG_STATEMENTS one-line stores (``A[i % 4] = A[0] + i``), formatted
    and verified (the printer changes it: ``A[0] + 0`` prints as ``T.Add(A[0], 0)``, so the
    verification and the stability pass run)."""
    def run():
        result = format_source(BIG, "big.py", Mode(safe=True))
        assert result.changed, result.errors
    return BIG_STATEMENTS, run


@bench("black_lines", "lines")
def black_lines():
    try:
        import black  # pylint: disable=import-outside-toplevel
    except ImportError:  # black is in the `bench` extra; report its absence, don't fail
        return 0, lambda: None
    mode = black.Mode()

    def run():
        for _, text in TEXTS:
            try:
                black.format_str(text, mode=mode)
            except black.InvalidInput:
                pass
    return LINES, run
