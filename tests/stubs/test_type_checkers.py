"""Acceptance checks of issue 7: mypy and pylint, with the documented configuration
(tests/stubs/mypy.ini, tests/stubs/pylintrc; see docs/stubs.md), report zero findings on the
whole TVMScript corpus, both as written (``from tvm.script import tir as T`` against the
installed tvm-stubs, TVM not installed) and in its ``from tirkit.lang import tir as T`` spelling;
the typeshed-style cases in typecheck_cases.py pass under ``--warn-unused-ignores``.

The tools run as subprocesses of this interpreter; mypy keeps its cache under /tmp."""
import filecmp
import importlib.util
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from corpus_variants import HERE, REPO, copy_pylintrc, mypy_config, write_variant

CACHE = Path("/tmp/tirkit-stubs-mypy-cache")
VARIANTS = ["tvm", "tirkit"]


def _installed_stubs() -> Path:
    return Path(sysconfig.get_paths()["purelib"]) / "tvm-stubs"


def test_tvm_is_not_installed_and_tvm_stubs_are():
    assert importlib.util.find_spec("tvm") is None, "these checks assume TVM is not installed"
    installed = _installed_stubs()
    assert installed.is_dir(), "tvm-stubs is not installed: run `make test` or `pip install ./stubs`"
    ours = REPO / "stubs" / "tvm-stubs"
    cmp = filecmp.dircmp(ours, installed, ignore=["__pycache__"])
    stale = []

    def walk(c):
        stale.extend(c.diff_files + c.left_only)
        for sub in c.subdirs.values():
            walk(sub)
    walk(cmp)
    assert not stale, f"installed tvm-stubs differ from stubs/ ({stale}): `pip install ./stubs`"


def _run(args, cwd):
    return subprocess.run([sys.executable, "-m", *args], cwd=cwd, capture_output=True,
                          text=True, check=False)


@pytest.mark.parametrize("variant", VARIANTS)
def test_mypy_reports_nothing_on_the_corpus(tmp_path, variant):
    corpus = write_variant(tmp_path / "cases", variant)
    config = mypy_config(tmp_path)
    res = _run(["mypy", "--config-file", str(config), "--cache-dir", str(CACHE / variant),
                "--no-error-summary", corpus.name], tmp_path)
    assert res.returncode == 0 and not res.stdout.strip(), res.stdout + res.stderr


@pytest.mark.parametrize("variant", VARIANTS)
def test_pylint_reports_nothing_on_the_corpus(tmp_path, variant):
    corpus = write_variant(tmp_path / "cases", variant)
    rc = copy_pylintrc(tmp_path)
    res = _run(["pylint", "--rcfile", str(rc), "--score=n", corpus.name], tmp_path)
    assert res.returncode == 0 and not res.stdout.strip(), res.stdout + res.stderr


def test_without_the_configuration_mypy_rejects_buffer_annotations(tmp_path):
    """The measurement behind the configuration: default mypy rejects the call form."""
    write_variant(tmp_path / "cases", "tvm")
    case = tmp_path / "cases" / "01_matmul_basic.py"
    res = _run(["mypy", "--cache-dir", str(CACHE / "plain"), "--no-error-summary",
                str(case.relative_to(tmp_path))], tmp_path)
    assert "[valid-type]" in res.stdout
    assert res.stdout.count("error:") == res.stdout.count("[valid-type]"), res.stdout


def test_assert_type_cases(tmp_path):
    shutil.copy(HERE / "typecheck_cases.py", tmp_path)
    config = tmp_path / "cases.ini"
    config.write_text(f"[mypy]\nplugins = tirkit.mypy_plugin\nmypy_path = {REPO}\n"
                      "warn_unused_ignores = True\n[mypy-tirkit.*]\nfollow_imports = silent\n")
    res = _run(["mypy", "--config-file", str(config), "--cache-dir", str(CACHE / "cases"),
                "typecheck_cases.py"], tmp_path)
    assert res.returncode == 0, res.stdout + res.stderr


def test_the_stubs_and_plugins_type_check():
    """The generated stubs, the stub generator and both plugins pass mypy themselves."""
    files = ["tirkit/lang/tir.pyi", "tirkit/lang/ir.pyi", "tirkit/lang/_types.pyi",
             "tirkit/mypy_plugin.py", "tirkit/pylint_plugin.py", "tirkit/stubgen.py",
             "tirkit/stubgen_special.py", "tirkit/stubgen_types.py"]
    res = _run(["mypy", "--cache-dir", str(CACHE / "self"), "--follow-imports=silent",
                "--warn-unused-ignores", "--disable-error-code=import-untyped",
                "--no-error-summary", *files], REPO)
    assert res.returncode == 0, res.stdout + res.stderr
