"""Acceptance checks of issue 7: mypy and pylint, with the documented configuration
(tests/stubs/mypy.ini, tests/stubs/pylintrc; see docs/stubs.md), report zero findings on the
whole TVMScript corpus, both as written (``from tvm.script import tir as T`` against the
installed tvm-stubs, TVM not installed) and in its ``from tirkit.lang import tir as T`` spelling;
the typeshed-style cases in typecheck_cases.py pass under ``--warn-unused-ignores``.

The tools run as subprocesses of this interpreter, each with an explicit configuration file (so
no ``mypy.ini``/``pylintrc`` in a parent directory of pytest's temporary directory, and no
``MYPYPATH``/``PYLINTRC`` in the environment, changes what they report) and caches under this
run's temporary directory (never shared between clones or runs)."""
import filecmp
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from corpus_variants import HERE, REPO, copy_pylintrc, mypy_config, write_variant

VARIANTS = ["tvm", "tirkit"]
#: environment variables through which a tool would read configuration from outside this tree
_FOREIGN_ENV = ("MYPYPATH", "MYPY_CACHE_DIR", "PYLINTRC", "PYLINTHOME", "PYTHONSTARTUP")


@pytest.fixture(scope="module", name="cache")
def _cache(tmp_path_factory) -> Path:
    """This run's mypy cache root (one per test module run, never a fixed shared path)."""
    return tmp_path_factory.mktemp("mypy-cache")


def _default_config(dest: Path) -> Path:
    """An explicit mypy configuration holding only defaults: mypy looks for a configuration in
    parent directories unless it is given one."""
    path = dest / "defaults.ini"
    path.write_text("[mypy]\n", encoding="utf-8")
    return path


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
    env = {k: v for k, v in os.environ.items() if k not in _FOREIGN_ENV}
    if args[0] == "pylint":  # its statistics cache, otherwise under ~/.cache
        env["PYLINTHOME"] = str(Path(cwd) / ".pylint-home")
    return subprocess.run([sys.executable, "-m", *args], cwd=cwd, capture_output=True,
                          text=True, check=False, env=env)


@pytest.mark.parametrize("variant", VARIANTS)
def test_mypy_reports_nothing_on_the_corpus(tmp_path, cache, variant):
    corpus = write_variant(tmp_path / "cases", variant)
    config = mypy_config(tmp_path)
    res = _run(["mypy", "--config-file", str(config), "--cache-dir", str(cache / variant),
                "--no-error-summary", corpus.name], tmp_path)
    assert res.returncode == 0 and not res.stdout.strip(), res.stdout + res.stderr


@pytest.mark.parametrize("variant", VARIANTS)
def test_pylint_reports_nothing_on_the_corpus(tmp_path, variant):
    corpus = write_variant(tmp_path / "cases", variant)
    rc = copy_pylintrc(tmp_path)
    res = _run(["pylint", "--rcfile", str(rc), "--score=n", corpus.name], tmp_path)
    assert res.returncode == 0 and not res.stdout.strip(), res.stdout + res.stderr


def test_without_the_configuration_mypy_rejects_buffer_annotations(tmp_path, cache):
    """The measurement behind the configuration: default mypy rejects the call form. A
    ``mypy.ini`` in a parent directory (which mypy 2.x would pick up) changes nothing."""
    (tmp_path / "mypy.ini").write_text("[mypy]\ndisable_error_code = valid-type\n")
    work = tmp_path / "work"
    write_variant(work / "cases", "tvm")
    case = work / "cases" / "01_matmul_basic.py"
    res = _run(["mypy", "--config-file", str(_default_config(work)),
                "--cache-dir", str(cache / "plain"), "--no-error-summary",
                str(case.relative_to(work))], work)
    assert "[valid-type]" in res.stdout
    assert res.stdout.count("error:") == res.stdout.count("[valid-type]"), res.stdout


def test_assert_type_cases(tmp_path, cache):
    shutil.copy(HERE / "typecheck_cases.py", tmp_path)
    config = tmp_path / "cases.ini"
    config.write_text(f"[mypy]\nplugins = tirkit.mypy_plugin\nmypy_path = {REPO}\n"
                      "warn_unused_ignores = True\n[mypy-tirkit.*]\nfollow_imports = silent\n")
    res = _run(["mypy", "--config-file", str(config), "--cache-dir", str(cache / "cases"),
                "typecheck_cases.py"], tmp_path)
    assert res.returncode == 0, res.stdout + res.stderr


def test_the_stubs_and_plugins_type_check(tmp_path, cache):
    """The generated stubs, the stub generator and both plugins pass mypy themselves."""
    files = ["tirkit/lang/tir.pyi", "tirkit/lang/ir.pyi", "tirkit/lang/_types.pyi",
             "tirkit/mypy_plugin.py", "tirkit/pylint_plugin.py", "tirkit/stubgen.py",
             "tirkit/stubgen_special.py", "tirkit/stubgen_types.py"]
    res = _run(["mypy", "--config-file", str(_default_config(tmp_path)),
                "--cache-dir", str(cache / "self"), "--follow-imports=silent",
                "--warn-unused-ignores", "--disable-error-code=import-untyped",
                "--no-error-summary", *files], REPO)
    assert res.returncode == 0, res.stdout + res.stderr
