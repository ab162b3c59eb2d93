"""Golden cases of the printer: ``cases/*.py`` hold TVMScript input, a ``# output`` line, and the
text ``script()`` prints for the parsed input. Every case also checks the round trip
``structural_equal(parse(script(ir)), ir)`` and stability ``script(parse(script(ir))) ==
script(ir)``. A first line ``# flags: key=value ...`` passes printer options.

Set ``TIRKIT_UPDATE_GOLDENS=1`` to rewrite the expected outputs.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from tirkit.ir import first_mismatch, structural_equal
from tirkit.printer import script

from printer_util import parse

CASES = sorted((Path(__file__).parent / "cases").glob("*.py"))
SEP = "# output\n"


def _split(path: Path) -> tuple[dict[str, object], str, str | None]:
    text = path.read_text()
    flags: dict[str, object] = {}
    if text.startswith("# flags:"):
        first, text = text.split("\n", 1)
        for item in first[len("# flags:"):].split():
            key, value = item.split("=", 1)
            flags[key] = int(value) if value.isdigit() else value
    if SEP in text:
        src, expected = text.split(SEP, 1)
        return flags, src, expected
    return flags, text, None


@pytest.mark.parametrize("path", CASES, ids=[c.stem for c in CASES])
def test_case(path: Path) -> None:
    flags, src, expected = _split(path)
    dialect = str(flags.get("dialect", "tir"))
    ir = parse(src, "tir")
    out = script(ir, **flags)
    if os.environ.get("TIRKIT_UPDATE_GOLDENS"):
        head = path.read_text().split("\n", 1)[0] + "\n" if flags else ""
        path.write_text(head + src.rstrip("\n") + "\n" + SEP + out + "\n")
        return
    assert expected is not None, f"{path.name} has no '# output' section"
    assert out == expected.rstrip("\n")
    again = parse(out, dialect)
    a, b = ir, again
    assert structural_equal(a, b), first_mismatch(a, b)
    assert script(again, **flags) == out
