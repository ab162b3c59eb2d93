"""tirfmt throughput next to black's on the same files, in the same run (issue 4)."""
from __future__ import annotations

from pathlib import Path

from registry import bench

from tirkit.cli.tirfmt_format import Mode, format_source

CASES = sorted((Path(__file__).resolve().parents[1] / "tests" / "lang" / "cases").glob("*.py"))
TEXTS = [(str(p), p.read_text(encoding="utf-8")) for p in CASES]
LINES = sum(t.count("\n") for _, t in TEXTS)


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
