"""``tirc`` never ends in an internal error on real TVMScript (issue 15): TVM's printed corpus
(tests/printer/tvm_reference/expected, a fixed sample plus the files that once crashed) and the
front end's corpus (tests/lang/cases) compile, or fail with diagnostics (exit 1) that name the
construct; what a CPU cannot compile names the construct and the target. Exit codes: 0 ok, 1
diagnostics, 2 usage or I/O error, 3 internal error with the "please report" text."""
from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tirkit.cli import tirc

ROOT = Path(__file__).resolve().parents[2]
PRINTED = sorted((ROOT / "tests/printer/tvm_reference/expected").glob("*.py"))
ONCE_CRASHED = ("23_loops__grid_symbolic", "29_assert__t_assert", "29_assert__multi_line_assert",
                "26_block_attr_match_region__wmma_fill")
SAMPLE = [p for i, p in enumerate(PRINTED) if i % 4 == 0 or p.stem in ONCE_CRASHED]
FRONT_END = sorted((ROOT / "tests/lang/cases").glob("*.py"))[::3]


def _tirc(argv: list[str]) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = tirc.main(argv)
    return code, err.getvalue()


def _unit_file(path: Path, tmp: Path) -> Path:
    """TVM prints its import as a comment; the unit file with that import in effect."""
    out = tmp / path.name
    out.write_text(re.sub(r"^# (from tvm\.script import)", r"\1", path.read_text(), flags=re.M))
    return out


def test_printed_corpus_has_no_internal_error(tmp_path: Path) -> None:
    results = {}
    for path in SAMPLE:
        code, err = _tirc([str(_unit_file(path, tmp_path)), "-O0", "-o", os.devnull])
        results[path.stem] = (code, err)
    internal = {k: e for k, (c, e) in results.items() if c not in (0, 1) or "internal" in e}
    assert not internal, internal
    assert sum(c == 0 for c, _ in results.values()) >= len(SAMPLE) // 2
    for code, err in results.values():
        assert code == 0 or "error" in err


def test_front_end_corpus_has_no_internal_error() -> None:
    for path in FRONT_END:
        code, err = _tirc([str(path), "-O0", "-o", os.devnull])
        assert code in (0, 1) and "internal" not in err, (path.name, err)


@pytest.mark.parametrize("stem,message", [
    ("26_block_attr_match_region__wmma_fill", "tir.tvm_fill_fragment is a GPU intrinsic: the "
                                              "CPU target x86_64"),
])
def test_once_crashing_units_get_a_diagnostic(stem: str, message: str, tmp_path: Path) -> None:
    path = _unit_file(ROOT / f"tests/printer/tvm_reference/expected/{stem}.py", tmp_path)
    code, err = _tirc([str(path), "--target", "x86_64-unknown-linux-gnu", "-o", os.devnull])
    assert code == 1 and message in err, err
    assert "Traceback" not in err and "internal" not in err


def test_tvm_027_assert_message_tuple_compiles(tmp_path: Path) -> None:
    """TVM 0.27 prints an assert message as ``("RuntimeError", [parts])``: it once crashed tirc,
    then was a diagnostic, and now parses (issue 10) and compiles."""
    path = _unit_file(ROOT / "tests/printer/tvm_reference/expected/29_assert__t_assert.py",
                      tmp_path)
    code, err = _tirc([str(path), "--target", "x86_64-unknown-linux-gnu", "-o", os.devnull])
    assert code == 0, err


def test_tvm_027_quoted_shape_dim_compiles(tmp_path: Path) -> None:
    """TVM 0.27 names a symbolic dim a signature has not defined yet as a string
    (``A: T.Buffer(("n", 4, 8)), n: T.int32``): it once crashed tirc, then was a diagnostic, and
    now parses as the later param ``n`` (issue 10) and compiles."""
    path = _unit_file(ROOT / "tests/printer/tvm_reference/expected/23_loops__grid_symbolic.py",
                      tmp_path)
    code, err = _tirc([str(path), "--target", "x86_64-unknown-linux-gnu", "-o", os.devnull])
    assert code == 0, err
    assert "Traceback" not in err and "error" not in err


def test_exit_2_for_usage_and_io_errors(tmp_path: Path) -> None:
    assert _tirc([str(tmp_path / "missing.py")])[0] == 2
    assert _tirc([str(ROOT / "examples/matmul.py"), "--emit", "nonsense"])[0] == 2


def test_internal_error_exits_3_and_asks_for_a_report(monkeypatch) -> None:
    def broken(_args):
        raise KeyError("a tirc bug")

    monkeypatch.setattr(tirc, "compile_command", broken)
    code, err = _tirc([str(ROOT / "examples/matmul.py")])
    assert code == 3
    assert "internal error: KeyError" in err and "please report" in err


def test_output_into_a_closed_pipe_is_quiet() -> None:
    """``tirc f.py | head``: the reader is gone before tirc writes; no traceback, exit 2."""
    proc = subprocess.Popen([sys.executable, "-m", "tirkit.cli.tirc", "examples/matmul.py",
                             "--emit", "lowered"], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=300) == 2
    assert err == ""


MATCH_HEAD = "from tvm.script import tir as T\n\n@T.prim_func\n"


@pytest.mark.parametrize("body,message", [
    ("def f(A: T.Buffer((16, 16), \"float32\")):\n    for i in range(16):\n"
     "        with T.block(\"x\"):\n            vi = T.axis.spatial(16, i)\n"
     "            sub = T.match_buffer(A[vi, 0:16], (16,), offset_factor=3)\n"
     "            sub[0] = T.float32(1)\n", "does not satisfy the offset_factor 3"),
    ("def f(A: T.Buffer((16, 16), \"float32\")):\n    for i in range(16):\n"
     "        with T.block(\"x\"):\n            vi = T.axis.spatial(16, i)\n"
     "            sub = T.match_buffer(A[vi, 0:16], (16,))\n"
     "            sub[0] = T.float32(1)\n", "the buffer match constraint for sub.elem_offset"),
    ("def f(x: T.int32):\n    A = T.match_buffer(x, (16,), \"float32\")\n"
     "    A[0] = T.float32(1)\n", "param 'x' has type int32, but buffer 'A' is matched to it"),
])
def test_match_buffer_input_errors_are_diagnostics(body: str, message: str,
                                                   tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    path.write_text(MATCH_HEAD + body)
    code, err = _tirc([str(path), "-o", os.devnull])
    assert code == 1 and message in err, err
    assert "internal" not in err
