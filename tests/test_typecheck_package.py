"""mypy reports nothing on the ``tirkit`` package with the checkout's configuration
(``[tool.mypy]`` in pyproject.toml), so that type errors cannot creep back in.

mypy runs as a subprocess of this interpreter with that configuration file given explicitly (so
no ``mypy.ini`` in a parent directory, and no ``MYPYPATH`` in the environment, changes what it
reports). Its cache is a directory of this run (pytest's ``tmp_path``), so nothing left by an
earlier run or another checkout can change the result: the whole package takes about a minute on
two cores."""
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
#: environment variables through which mypy would read configuration from outside this tree
_FOREIGN_ENV = ("MYPYPATH", "MYPY_CACHE_DIR", "PYTHONSTARTUP")


def test_mypy_reports_nothing_on_the_package(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in _FOREIGN_ENV}
    res = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(REPO / "pyproject.toml"),
         "--cache-dir", str(tmp_path / "mypy_cache")],
        cwd=REPO, capture_output=True, text=True, check=False, env=env)
    assert res.returncode == 0, res.stdout + res.stderr
