"""The VS Code extension builds and its tests pass: `npm ci`, `tsc` + mocha on the pure helpers and
vscode-tmgrammar-test on the injection grammar (`npm test`), and `vsce package` (DESIGN.md
section 7). Skipped where npm is not installed."""
import json
import re
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
    done = _npm("run", "test:unit")
    out = done.stdout + done.stderr
    assert done.returncode == 0, out[-3000:]
    passing = re.search(r"^\s*(\d+) passing\b", done.stdout, re.M)
    assert passing and int(passing.group(1)) >= 8, out[-3000:]
    assert not re.search(r"^\s*\d+ failing\b", done.stdout, re.M), out[-3000:]
    for suite in ("interpreter resolution", "settings"):
        assert re.search(rf"^\s*{suite}$", done.stdout, re.M), out[-3000:]


def test_injection_grammar_tests_pass(installed):
    cases = sorted((EXT / "test" / "grammar").glob("*.test.py"))
    assert cases
    done = _npm("run", "test:grammar")
    out = done.stdout + done.stderr
    assert done.returncode == 0, out[-3000:]
    for case in cases:
        assert f"{case.name} run successfuly" in done.stdout, out[-3000:]
    assert "failed" not in done.stdout, out[-3000:]


def test_npm_test_runs_both_suites():
    scripts = json.loads((EXT / "package.json").read_text())["scripts"]
    assert "mocha" in scripts["test:unit"]
    assert "vscode-tmgrammar-test" in scripts["test:grammar"]
    assert "test:unit" in scripts["test"] and "test:grammar" in scripts["test"]


def test_vsce_packages_the_extension(installed):
    done = _npm("run", "package")
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    vsix = EXT / "tvmscript-tirkit.vsix"
    with zipfile.ZipFile(vsix) as zf:
        names = zf.namelist()
    assert "extension/dist/extension.js" in names
    assert "extension/package.json" in names
    assert "extension/syntaxes/tvmscript.injection.tmLanguage.json" in names
    assert not any("/test/" in n or n.endswith(".ts") for n in names), names
