"""Broken units report exactly the expected diagnostics: each at its marked line and column range,
with the marked message text, and nothing else (tests/lang/errors/README.md)."""
from pathlib import Path

import pytest

from error_markers import read_markers
from tirkit.lang import parse_file

ERRORS = Path(__file__).parent / "errors"
FILES = sorted(ERRORS.glob("*.py"))


def _found(path: Path):
    units = parse_file(path.read_text(encoding="utf-8"), str(path))
    return [d for u in units for d in u.diagnostics]


def _describe(diags) -> str:
    return "\n".join(f"  {d.span.line if d.span else '?'}:"
                     f"{d.span.column if d.span else '?'}-"
                     f"{d.span.end_column if d.span else '?'} {d.message}" for d in diags)


def test_corpus_has_forty_broken_units():
    assert len(FILES) >= 25
    assert sum(len(read_markers(f)) for f in FILES) >= 40


@pytest.mark.parametrize("path", FILES, ids=[f.name for f in FILES])
def test_expected_diagnostics_and_nothing_else(path):
    expected = read_markers(path)
    found = _found(path)
    unmatched = list(found)
    missing = []
    for exp in expected:
        hit = next((d for d in unmatched if d.span is not None and d.span.line == exp.line
                    and d.span.column == exp.start and d.span.end_column == exp.end
                    and exp.text in d.message and str(d.severity) == exp.severity), None)
        if hit is None:
            missing.append(exp)
        else:
            unmatched.remove(hit)
    assert not missing and not unmatched, (
        f"missing:\n" + "\n".join(f"  {m.line}:{m.start}-{m.end} {m.text}" for m in missing)
        + f"\nunexpected:\n{_describe(unmatched)}")
