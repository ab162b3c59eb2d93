"""Tried as a new user would: the seed programs go through the front end without a traceback (old
syntax gets diagnostics, the modern translations none); a unit with syntax errors does not stop
the others; static mode never runs user code."""
import glob
from pathlib import Path

import pytest

from tirkit.ir.diagnostics import DiagnosticError
from tirkit.lang import from_source, parse_file

HERE = Path(__file__).parent
SEEDS = sorted((HERE / "seeds").glob("*.py"))


@pytest.mark.parametrize("path", SEEDS, ids=[p.name for p in SEEDS])
def test_seed_goes_through_without_a_traceback(path):
    units = parse_file(path.read_text(encoding="utf-8"), str(path))
    diags = [d for u in units for d in u.diagnostics]
    if path.name.endswith("_modern.py"):
        assert units and not diags, [d.message for d in diags]
        assert all(u.ir is not None for u in units)
    for d in diags:
        assert d.message and d.span is not None


def test_old_block_syntax_is_diagnosed_clearly():
    units = parse_file((HERE / "seeds" / "004_te.py").read_text(), "004_te.py")
    messages = [d.message for u in units for d in u.diagnostics]
    assert any("legacy hybrid script" in m for m in messages)
    assert any("'b' is not defined" in m for m in messages)


def test_first_unit_with_syntax_errors_does_not_stop_the_next():
    path = HERE / "errors" / "01_syntax_several.py"
    units = {u.name: u for u in parse_file(path.read_text(), str(path))}
    assert units["broken"].ir is None and len(units["broken"].diagnostics) == 3
    assert units["fine"].ir is not None and not units["fine"].diagnostics


def test_static_mode_runs_no_user_code(tmp_path, monkeypatch):
    """The file's attacks would `touch tirkit_pwned_*` in the working directory: this run's own
    empty directory (no fixed path under the system's temp directory)."""
    monkeypatch.chdir(tmp_path)
    path = HERE / "errors" / "15_no_execution.py"
    units = parse_file(path.read_text(), str(path))
    assert sum(len(u.diagnostics) for u in units) >= 4
    assert not glob.glob(str(tmp_path / "tirkit_pwned_*")), "user code ran during static parsing"
    with pytest.raises(DiagnosticError):
        from_source(path.read_text())
    assert not glob.glob(str(tmp_path / "tirkit_pwned_*"))


def test_parse_file_accepts_a_path():
    path = HERE.parents[1] / "examples" / "matmul.py"
    for source in (path, str(path)):
        units = parse_file(source)
        assert [u.name for u in units] == ["main"] and units[0].ir is not None
        assert units[0].span.source_name == str(path)


def test_missing_import_is_diagnosed_with_a_fix():
    units = parse_file("\n@T.prim_func\ndef f(A: T.Buffer((4,), 'float32')):\n    A[0] = 0.0\n", "x.py")
    [diag] = [d for u in units for d in u.diagnostics]
    assert "`T` is not imported" in diag.message and diag.span.line == 2
    [fix] = diag.fixes
    assert fix.replacement == "from tvm.script import tir as T\n" and fix.span.start_offset == 0


def test_sblock_without_s_tir_has_a_fix_adding_it():
    path = HERE / "errors" / "24_tirx_dialect.py"
    diags = [d for u in parse_file(path) for d in u.diagnostics if "s_tir=True" in d.message]
    [fix] = diags[0].fixes
    assert fix.replacement == "T.prim_func(s_tir=True)"
    lines = path.read_text().splitlines()
    assert lines[fix.span.line - 1][fix.span.column:fix.span.end_column] == "T.prim_func"
