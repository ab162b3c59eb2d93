"""Before/expected TVMScript cases for every pass (DESIGN.md §7).

Layout: ``tests/compiler/pass_cases/<PassName>/<case>.py``. A case file holds the input unit(s),
then a line ``# output``, then the expected unit(s). Optional header lines before the input:
``# flags: {"opt_level": 3, "config": {"tir.instrument_bound_checkers": true}}`` (JSON, passed to
``PassContext``). The pass runs under that context on the input module; the result must be
structurally equal to the expected module (functions matched by name), and must print and parse
back to itself (contract 2). ``--update-goldens`` is not offered here on purpose: expected IR is
written by hand from TVM's behaviour.
"""
import json
from pathlib import Path

import pytest

from tirkit.compiler.transform import PassContext, as_module, get_pass
from tirkit.ir import assert_structural_equal, structural_equal
from tirkit.lang import from_source
from tirkit.printer import script

CASES = Path(__file__).parent / "pass_cases"
FILES = sorted(CASES.glob("*/*.py"))


def _split(text: str):
    before, sep, after = text.partition("\n# output\n")
    assert sep, "a pass case needs a '# output' line"
    flags = {}
    for line in before.splitlines():
        if line.startswith("# flags:"):
            flags = json.loads(line[len("# flags:"):])
    return before, after, flags


def _parse(text: str):
    return as_module(from_source(text))


def test_every_registered_pass_has_cases():
    from tirkit.compiler.transform import list_passes

    with_cases = {p.parent.name for p in FILES}
    missing = [name for name in list_passes() if name not in with_cases]
    assert not missing, f"passes without before/expected cases: {missing}"


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_pass_case(path):
    before, after, flags = _split(path.read_text(encoding="utf-8"))
    mod, expected = _parse(before), _parse(after)
    with PassContext(opt_level=flags.get("opt_level", 2), config=flags.get("config", {})):
        out = get_pass(path.parent.name)(mod)
    assert_structural_equal(out, expected, map_free_vars=True)
    again = from_source(script(out))
    assert structural_equal(as_module(again), out, map_free_vars=True)
