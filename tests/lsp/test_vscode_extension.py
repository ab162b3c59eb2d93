"""The VS Code extension builds and its helper tests pass: `npm ci`, `tsc` + node's test runner
(`npm test`), and `vsce package` (DESIGN.md section 7). Skipped where npm is not installed."""
import json
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

EXT = Path(__file__).resolve().parents[2] / "vscode-extension"
NPM = shutil.which("npm")
pytestmark = pytest.mark.skipif(NPM is None, reason="npm is not installed")


def _npm(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([NPM, *args], cwd=EXT, capture_output=True, text=True, timeout=600,
                          check=False)


@pytest.fixture(scope="module")
def installed():
    if not (EXT / "node_modules").is_dir():
        done = _npm("ci", "--no-audit", "--no-fund")
        assert done.returncode == 0, done.stderr[-2000:]


def test_settings_and_commands_are_declared_once():
    pkg = json.loads((EXT / "package.json").read_text())
    props = pkg["contributes"]["configuration"]["properties"]
    commands = {c["command"] for c in pkg["contributes"]["commands"]}
    assert len(props) == len(set(props)) and any("interpreter" in k.lower() or "python" in k.lower()
                                                 for k in props)
    assert len(commands) >= 2


def test_typescript_compiles_and_helper_tests_pass(installed):
    done = _npm("test")
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    assert "# fail 0" in done.stdout


def test_vsce_packages_the_extension(installed):
    done = _npm("run", "package")
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    vsix = EXT / "tvmscript-tirkit.vsix"
    with zipfile.ZipFile(vsix) as zf:
        names = zf.namelist()
    assert any(n.endswith("dist/extension.js") for n in names)
    assert any(n.endswith("package.json") for n in names)
