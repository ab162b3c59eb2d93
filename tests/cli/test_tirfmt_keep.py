"""``tirfmt`` changes layout, never content (issue 15): the files of ``examples/`` are already
formatted, a unit whose printed form would lose a name, a string or a comment is left as it
is, writes go through symbolic links and keep hard links, ``--diff | head`` ends quietly and a
tirfmt bug exits 3 with the "please report" text. Real subprocesses where the command line is
what is tested."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tirkit.cli import tirfmt
from tirkit.cli.tirfmt_format import Mode, format_source
from tirkit.cli.tirfmt_keep import lost_content

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(p for p in (ROOT / "examples").rglob("*.py"))
UGLY = ("from tvm.script import tir as T\n\n\n@T.prim_func\n"
        "def f(A: T.Buffer((4,), \"float32\")):\n    for i in range(4):\n"
        "        A[i] = A[i]*T.float32(2)\n")
PRETTY = UGLY.replace("A[i]*T.float32(2)", "A[i] * T.float32(2)")


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tirkit.cli.tirfmt", *args],
                          capture_output=True, text=True, cwd=cwd, timeout=300, check=False,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


@pytest.mark.parametrize("path", EXAMPLES, ids=[str(p.relative_to(ROOT)) for p in EXAMPLES])
def test_examples_are_formatted(path: Path) -> None:
    text = path.read_text()
    result = format_source(text, str(path), Mode())
    assert not result.errors, result.errors
    assert result.text == text


def test_lost_content_names_the_word() -> None:
    assert lost_content("f(N)  # why\n", "f(64)  # why\n") == "'N'"
    assert lost_content("f(N)  # why\n", "f(N)\n") == "'why'"
    assert lost_content('g(x, "float32")\n', "g(x)\n") == "'\"float32\"'"
    assert lost_content("f( N,1 )\n", "f(N, 1.0)\n") is None  # layout and number spelling
    assert lost_content("f('a')\n", 'f("a")\n') is None  # quotes are layout, the value stays
    assert lost_content("f('a')\n", 'f("b")\n') == "'\"a\"'"
    # a loop var printed under a unique name loses the user's name even when the printer
    # writes the name elsewhere (a region derived from a buffer's shape)
    assert lost_content("for i in r(i):\n    g(i)\n", "for i_1 in r(i):\n    g(i_1, i)\n") \
        == "'i'"
    assert lost_content("for i_1 in r(i):\n", "for i_1 in r(i):\n") is None


def test_docstring_and_header_comments_survive_safe_mode(tmp_path: Path) -> None:
    f = tmp_path / "k.py"
    text = UGLY.replace("@T.prim_func\n", "@T.prim_func  # deco\n").replace(
        '"float32")):', '"float32"),  # param\n      ):\n    """Doc."""  # after doc')
    text = text.replace("    for i in range(4):", '    for i in range(4):  # loop')
    f.write_text(text)
    r = run("--safe", str(f))
    assert r.returncode == 0, r.stderr
    out = f.read_text()
    for line in ("@T.prim_func  # deco", '"float32"),  # param', '    """Doc."""  # after doc',
                 "    for i in range(4):  # loop", "A[i] * T.float32(2)"):
        assert line in out, (line, out)
    assert "root" not in out
    assert run("--check", str(f)).returncode == 0  # stable: a second run changes nothing


def test_write_goes_through_a_symlink(tmp_path: Path) -> None:
    target = tmp_path / "real.py"
    target.write_text(UGLY)
    link = tmp_path / "link.py"
    link.symlink_to(target)
    assert run(str(link)).returncode == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text() == PRETTY


def test_hard_links_are_kept(tmp_path: Path) -> None:
    a, b = tmp_path / "a.py", tmp_path / "b.py"
    a.write_text(UGLY)
    os.link(a, b)
    a.chmod(0o600)
    assert run(str(a)).returncode == 0
    assert os.path.samefile(a, b) and b.read_text() == PRETTY
    assert a.stat().st_mode & 0o777 == 0o600


def test_diff_into_a_closed_pipe_is_quiet(tmp_path: Path) -> None:
    """``tirfmt --diff . | head``: the reader is gone before tirfmt writes; no traceback."""
    (tmp_path / "k.py").write_text(UGLY)
    proc = subprocess.Popen([sys.executable, "-m", "tirkit.cli.tirfmt", "--diff", "."],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=300) == 2
    assert "Traceback" not in err and "BrokenPipe" not in err, err


def test_internal_error_exits_3_and_asks_for_a_report(tmp_path: Path, monkeypatch,
                                                      capsys) -> None:
    def broken(*_args, **_kwargs):
        raise RuntimeError("a tirfmt bug")

    f = tmp_path / "k.py"
    f.write_text(UGLY)
    monkeypatch.setattr(tirfmt, "format_source", broken)
    assert tirfmt.main([str(f)]) == 3
    err = capsys.readouterr().err
    assert "internal error" in err and "Please report" in err and "a tirfmt bug" in err
    assert f.read_text() == UGLY


HANDLES = ("from tvm.script import tir as T\n\n\n@T.prim_func\n"
           "def f(a: T.handle) -> None:\n    A = T.match_buffer(a, [4], dtype=\"float32\")\n"
           "    for i in T.serial(4):\n        A[i] = T.float32(0)\n")


def test_written_spelling_is_tirfmts_only() -> None:
    """``script()`` prints TVM's spelling; only with ``written`` (what tirfmt passes) the
    user's: the handle, ``-> None``, the default dtype as a keyword, ``T.serial``."""
    from tirkit.cli.tirfmt_keep import WrittenText
    from tirkit.lang import parse_file
    from tirkit.printer import script

    func = next(u.ir for u in parse_file(HANDLES, "h.py") if u.kind != "file")
    assert "def f(A: T.Buffer((4,), \"float32\")):" in script(func)
    assert "for i in range(4):" in script(func)
    kept = script(func, written=WrittenText(HANDLES))
    assert "def f(a: T.handle) -> None:" in kept
    assert "A = T.match_buffer(a, (4,), dtype=\"float32\")" in kept
    assert "for i in T.serial(4):" in kept
    result = format_source(HANDLES, "h.py", Mode())
    assert not result.errors and not result.notes
    assert lost_content(HANDLES, result.text) is None
