"""``tirfmt``: Black-style case files (``tirfmt_cases/*.py``: input, a ``# output`` line, the
expected file; an optional first line ``# flags: --line-length=60 --dialect=tirx``), each
checked for equivalence (every unit's IR structurally equal) and stability (formatting the
output changes nothing); and the command line through real subprocesses.

Set ``TIRKIT_UPDATE_GOLDENS=1`` to rewrite the expected outputs.
"""
from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tirkit.cli.tirfmt import build_parser
from tirkit.cli.tirfmt_format import Mode, format_source, translate_imports
from tirkit.ir import first_mismatch, structural_equal
from tirkit.lang import parse_file

CASES = sorted((Path(__file__).parent / "tirfmt_cases").glob("*.py"))
SEP = re.compile(r"^# output\r?\n", re.M)
ROOT = Path(__file__).resolve().parents[2]


def _split(path: Path) -> tuple[list[str], str, str | None]:
    text = path.read_bytes().decode("utf-8")
    flags: list[str] = []
    if text.startswith("# flags:"):
        first, text = re.split(r"\r?\n", text, maxsplit=1)
        flags = first[len("# flags:"):].split()
    parts = SEP.split(text, maxsplit=1)
    return flags, parts[0], parts[1] if len(parts) == 2 else None


def _mode(flags: list[str]) -> Mode:
    args = build_parser().parse_args([*flags, "x.py"])
    length = 100 if args.line_length is None else args.line_length
    return Mode(length or None, args.dialect, True)


def _irs(text: str) -> list:
    return [(u.name, u.ir) for u in parse_file(text, "case.py") if u.kind != "file"]


@pytest.mark.parametrize("path", CASES, ids=[c.stem for c in CASES])
def test_case(path: Path) -> None:
    flags, src, expected = _split(path)
    mode = _mode(flags)
    result = format_source(src, path.name, mode)
    assert not result.errors, result.errors
    if os.environ.get("TIRKIT_UPDATE_GOLDENS"):
        head = path.read_bytes().decode().splitlines(keepends=True)[0] if flags else ""
        nl = "\r\n" if "\r\n" in src else "\n"
        path.write_bytes((head + src + "# output" + nl + result.text).encode())
        return
    assert expected is not None, f"{path.name} has no '# output' section"
    assert result.text == expected
    # equivalence: the same units, each with a structurally equal IR (a var a unit uses but
    # does not bind is a new object at each parse: mapped in order, as tirfmt's check does
    # when the dialect stays, the names being the text's)
    before, after = _irs(src), _irs(result.text)
    assert [n for n, _ in before] == [n for n, _ in after]
    free = mode.dialect is None
    for (name, a), (_, b) in zip(before, after):
        if a is not None:
            assert structural_equal(a, b, map_free_vars=free), \
                (name, first_mismatch(a, b, map_free_vars=free))
    # stability
    again = format_source(result.text, path.name, mode)
    assert not again.errors and again.text == result.text


def test_enough_cases() -> None:
    assert len(CASES) >= 12


def test_non_tvmscript_bytes_are_identical() -> None:
    _, src, expected = _split(next(c for c in CASES if "code_around" in c.name))
    assert expected is not None
    for chunk in ('"""A module docstring;   odd   spacing   kept."""', "x  =  [1,2,\n       3]",
                  "def helper( a ,b ):\n    return a+b", "class NotTVM :\n    y=1 ;  z = 2",
                  'if __name__ == "__main__":\n    print( helper(1,2) )'):
        assert chunk in src and chunk in expected
    assert src.split("@T.prim_func")[0] == expected.split("@T.prim_func")[0]


def test_dialect_round_trip_gives_back_the_classic_text() -> None:
    _, src, expected = _split(next(c for c in CASES if "to_tirx" in c.name))
    classic = format_source(src, "x.py", Mode()).text
    tirx = format_source(src, "x.py", Mode(dialect="tirx")).text
    assert "from tvm.script import tirx as T" in tirx and "T.sblock" in tirx
    back = format_source(tirx, "x.py", Mode(dialect="tir")).text
    # a dialect conversion prints the whole IR: the regions the parser inferred are spelled out,
    # where formatting in place leaves them out as the user did
    assert [ln for ln in back.splitlines()
            if not re.match(r"\s*T\.(reads|writes)\(", ln)] == classic.splitlines()
    assert "T.reads(A[vi, vj])" in back and "T.reads" not in classic


def test_translate_imports_only_touches_import_lines() -> None:
    text = "from tvm.script import tir as T, ir as I\nimport tvm.script.tir as tt\ntir = 1\n"
    assert translate_imports(text, "tirx") == (
        "from tvm.script import tirx as T, ir as I\nimport tvm.script.tirx as tt\ntir = 1\n")


def test_all_comments_of_a_commented_kernel_survive() -> None:
    text = (ROOT / "tests/lang/cases/46_comments.py").read_text()
    out = format_source(text, "c.py", Mode()).text
    comments = [ln.strip() for ln in text.splitlines() if "#" in ln]
    for c in comments:
        body = c[c.index("#") + 1:].strip()
        if not body.startswith("with T.block"):
            assert body in out, body


# ------------------------------------------------------------------------ command line
def run(*args: str, stdin: str | None = None, cwd: Path | None = None
        ) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tirkit.cli.tirfmt", *args], input=stdin,
                          capture_output=True, text=True, cwd=cwd, timeout=300, check=False,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


UGLY = ("from tvm.script import tir as T\n\n\n@T.prim_func\n"
        "def f(A: T.Buffer((4,), \"float32\")):\n    for i in range(4):\n"
        "        A[i] = A[i]*T.float32(2)\n")
PRETTY = ("from tvm.script import tir as T\n\n\n@T.prim_func\n"
          "def f(A: T.Buffer((4,), \"float32\")):\n    for i in range(4):\n"
          "        A[i] = A[i] * T.float32(2)\n")
BROKEN = ("from tvm.script import tir as T\n\n\n@T.prim_func\n"
          "def bad(A: T.Buffer((4,), \"float32\")):\n    for i in range(4)\n"
          "        A[i] = A[i]*T.float32(2)\n")


def test_check_exits_1_then_0_after_formatting(tmp_path: Path) -> None:
    f = tmp_path / "k.py"
    f.write_text(UGLY)
    r = run("--check", str(f))
    assert r.returncode == 1, r.stderr
    assert "would reformat" in r.stderr and f.read_text() == UGLY
    r = run(str(f))
    assert r.returncode == 0, r.stderr
    assert f.read_text() == PRETTY
    assert run("--check", str(f)).returncode == 0


def test_diff_on_stdout(tmp_path: Path) -> None:
    f = tmp_path / "k.py"
    f.write_text(UGLY)
    r = run("--diff", str(f))
    assert r.returncode == 0, r.stderr
    assert "-        A[i] = A[i]*T.float32(2)" in r.stdout
    assert "+        A[i] = A[i] * T.float32(2)" in r.stdout
    assert f.read_text() == UGLY


def test_stdin_to_stdout() -> None:
    r = run("-", stdin=UGLY)
    assert r.returncode == 0, r.stderr
    assert r.stdout == PRETTY
    r = run("--check", "-", "--stdin-filename", "k.py", stdin=UGLY)
    assert r.returncode == 1 and r.stdout == ""


def test_atomic_write_keeps_permissions(tmp_path: Path) -> None:
    f = tmp_path / "k.py"
    f.write_text(UGLY)
    f.chmod(0o640)
    assert run(str(f)).returncode == 0
    assert stat.S_IMODE(f.stat().st_mode) == 0o640
    assert f.read_text() == PRETTY
    assert [p.name for p in tmp_path.iterdir()] == ["k.py"]  # no temporary file left


def test_syntax_error_unit_reported_and_file_untouched(tmp_path: Path) -> None:
    f = tmp_path / "bad.py"
    f.write_text(BROKEN + "\n\n" + UGLY.replace("def f", "def g").split("\n", 3)[3])
    before = f.read_bytes()
    r = run(str(f))
    assert r.returncode == 2
    assert f"{f}:6:" in r.stderr and "error" in r.stderr and "^" in r.stderr
    assert f.read_bytes() == before


def test_pyproject_config_is_honoured(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.tirfmt]\nline-length = 30\ndialect = "tirx"\nexclude = ["skip_*"]\n')
    (tmp_path / "pkg").mkdir()
    f = tmp_path / "pkg" / "k.py"
    f.write_text(UGLY)
    skipped = tmp_path / "pkg" / "skip_me.py"
    skipped.write_text(UGLY)
    r = run(str(tmp_path / "pkg"))
    assert r.returncode == 0, r.stderr
    out = f.read_text()
    assert "from tvm.script import tirx as T" in out
    assert "def f(\n    A: T.Buffer(" in out  # wrapped at 30 columns
    assert skipped.read_text() == UGLY
    r = run("--line-length", "100", "--dialect", "tir", str(f))  # the command line wins
    # (converted twice: the float literal is the printer's, not the user's T.float32(2))
    assert r.returncode == 0 and f.read_text() == PRETTY.replace("float32(2)", "float32(2.0)")


def test_bad_pyproject_key_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.tirfmt]\nline-lenght = 50\n")
    f = tmp_path / "k.py"
    f.write_text(UGLY)
    r = run(str(f))
    assert r.returncode == 2 and "line-lenght" in r.stderr
    assert f.read_text() == UGLY


def test_user_file_is_never_executed(tmp_path: Path) -> None:
    marker = tmp_path / "executed"
    f = tmp_path / "k.py"
    f.write_text(f"__import__('os').system('touch {marker}')\n"
                 f"open({str(marker)!r}, 'w').write('x')\n" + UGLY)
    r = run(str(f))
    assert r.returncode == 0, r.stderr
    assert not marker.exists()
    assert f.read_text().endswith(PRETTY)


def test_progress_line_for_many_files(tmp_path: Path) -> None:
    for i in range(25):
        (tmp_path / f"k{i:02}.py").write_text(UGLY)
    r = run("--check", str(tmp_path))
    assert r.returncode == 1
    assert "25/25 files" in r.stderr
    assert "25 files would be reformatted" in r.stderr


def test_missing_path_and_no_path_are_errors(tmp_path: Path) -> None:
    assert run(str(tmp_path / "nope.py")).returncode == 2
    assert run().returncode == 2


def test_console_script_is_installed() -> None:
    exe = Path(sys.executable).parent / "tirfmt"
    if not exe.exists():
        pytest.skip("tirfmt console script not installed in this environment")
    r = subprocess.run([str(exe), "-"], input=UGLY, capture_output=True, text=True,
                       timeout=300, check=False)
    assert r.returncode == 0 and r.stdout == PRETTY


def test_pre_commit_hook_declared() -> None:
    yaml = pytest.importorskip("yaml")
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    hook = next(h for h in hooks if h["id"] == "tirfmt")
    assert hook["language"] == "python" and hook["types"] == ["python"]
    assert hook["entry"] == "tirfmt"


def test_metaprogramming_units_are_left_with_a_note_naming_the_forms() -> None:
    _, src, _ = _split(next(c for c in CASES if "metaprogramming" in c.name))
    notes = "\n".join(format_source(src, "meta.py", Mode()).notes)
    for unit, form in (("uses_macro", "macro `bump`"), ("strided", "a strided loop"),
                       ("computed", "T.compute"),
                       ("polymorphic", "a starred (rank-polymorphic) expression"),
                       ("unrolled", "a loop unrolled at parse time"), ("unrolled", "T.meta_var")):
        line = next(n for n in notes.splitlines() if f"unit '{unit}'" in n)
        assert form in line and "which printing would expand" in line, line
    assert "'plain'" not in notes


def test_safe_formatting_parses_the_input_and_the_output_once_each(monkeypatch) -> None:
    # the verification reuses the parses it already has (a 140 KB fuzzed file took tirfmt
    # 2.2 s of CPU with four parses); the result is still checked for IR equality and stability
    import tirkit.cli.tirfmt_format as fmt

    texts: list[str] = []

    def counting(text, path="<string>", **kw):
        texts.append(text)
        return parse_file(text, path, **kw)

    monkeypatch.setattr(fmt, "parse_file", counting)
    source = ("from tvm.script import tir as T\n\n\n@T.prim_func\n"
              "def f(A: T.Buffer((4,), \"float32\")):\n"
              "    for i in range(4):\n        A[i] = A[i]  +  T.float32(1)\n")
    result = format_source(source, "f.py", Mode(safe=True))
    assert not result.errors and result.text != source
    assert texts == [source, result.text]
    texts.clear()
    assert format_source(result.text, "f.py", Mode(safe=True)).text == result.text  # stable
    assert texts == [result.text]


def test_python_warnings_about_the_file_stay_out_of_the_output(tmp_path):
    """``1if`` makes Python's ast.parse warn "<unknown>:2: SyntaxWarning: invalid decimal
    literal" on stderr (it did, from tirfmt and tirc alike); the tools run with Python's
    compile-time warnings off and report only their own findings."""
    path = tmp_path / "w.py"
    path.write_text("from tvm.script import tir as T\nx = 1if 2 else 3\n\n\n@T.prim_func\n"
                    "def f(A: T.Buffer((4,), \"float32\")):\n    A[0]=T.float32(1)\n")
    fmt = run("--check", str(path))
    assert fmt.returncode == 1 and "would reformat" in fmt.stderr
    tirc = subprocess.run([sys.executable, "-m", "tirkit.cli.tirc", str(path), "-o", os.devnull],
                          capture_output=True, text=True, timeout=300, check=False,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert tirc.returncode == 0, tirc.stderr
    for proc in (fmt, tirc):
        assert "Warning" not in proc.stderr, proc.stderr
