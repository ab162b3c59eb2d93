"""Packaging (issue 13): ``python -m build`` makes a wheel and an sdist of the checkout; a fresh
virtual environment installs the wheel (its dependencies from the package index) and the three
console scripts run from it, outside the checkout: versions, a compile, a JIT run, the pipeline
explorer (package data), the formatter and a language-server session over stdio.

The slowest test of the suite after the examples (~20 s to build, ~50 s to install).
"""
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(cmd, cwd, timeout=600, stdin=None):
    proc = subprocess.run([str(c) for c in cmd], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, check=False, input=stdin)
    assert proc.returncode == 0, f"{cmd}:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc.stdout


def lsp_session() -> str:
    """initialize, shutdown and exit as JSON-RPC messages with their headers."""
    msgs = [{"jsonrpc": "2.0", "id": 1, "method": "initialize",
             "params": {"processId": None, "rootUri": None, "capabilities": {}}},
            {"jsonrpc": "2.0", "method": "initialized", "params": {}},
            {"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
            {"jsonrpc": "2.0", "method": "exit"}]
    out = ""
    for m in msgs:
        body = json.dumps(m)
        out += f"Content-Length: {len(body.encode())}\r\n\r\n{body}"
    return out


def test_wheel_installs_in_a_fresh_venv_and_its_tools_run(tmp_path):
    from tirkit import __version__

    dist = tmp_path / "dist"
    run([sys.executable, "-m", "build", "--outdir", dist, ROOT], tmp_path)
    [wheel] = dist.glob("tirkit-*.whl")
    [sdist] = dist.glob("tirkit-*.tar.gz")
    assert wheel.name.startswith(f"tirkit-{__version__}-") and sdist.stat().st_size > 0

    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", venv], tmp_path)
    bin_ = venv / "bin"
    run([bin_ / "python", "-m", "pip", "install", "--disable-pip-version-check", wheel],
        tmp_path, timeout=900)

    work = tmp_path / "work"  # outside the checkout: nothing can come from it
    work.mkdir()
    where = run([bin_ / "python", "-c", "import importlib.metadata as m, tirkit; "
                 "print(tirkit.__file__, m.version('tirkit'), tirkit.__version__)"], work)
    path, meta, own = where.split()
    assert path.startswith(str(venv)) and meta == own == __version__
    for tool in ("tirc", "tirfmt", "tirls"):
        assert run([bin_ / tool, "--version"], work).strip() == f"{tool} {__version__}"

    kernel = work / "matmul.py"
    kernel.write_text((ROOT / "examples" / "matmul.py").read_text())
    assert "define" in run([bin_ / "tirc", kernel, "--emit", "llvm"], work)
    out = run([bin_ / "tirc", "run", kernel, "--repeat", "1"], work)
    assert "FAILED" not in out and "ok:" in out
    run([bin_ / "tirc", kernel, "--html", work / "page.html"], work)
    assert "tirc pipeline explorer" in (work / "page.html").read_text()
    run([bin_ / "tirfmt", kernel], work)
    run([bin_ / "tirfmt", "--check", kernel], work)  # formatted now: nothing left to do
    reply = run([bin_ / "tirls"], work, timeout=120, stdin=lsp_session())
    assert '"capabilities"' in reply and '"id": 2' in reply.replace('"id":2', '"id": 2')
