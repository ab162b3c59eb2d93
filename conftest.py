"""Documentation that runs (issue 13): every ``python`` and ``sh`` code block of README.md and
docs/*.md is a test, collected and run by Sybil (https://sybil.readthedocs.io, pinned in
pyproject.toml's test extras).

The blocks of one document run in order in one namespace and one scratch working directory that
holds links to the checkout's ``examples``, ``docs``, ``tests`` and ``stubs``, so a block can read
``examples/matmul.py`` and write ``matmul.ll`` without touching the checkout. A ``sh`` block runs
in ``bash -e`` with this interpreter's ``bin`` first on ``PATH`` (``tirc``, ``tirfmt``, ``tirls``);
it fails when a command exits non-zero. A block that must not run (``make test`` would run the
suite again, an excerpt or a printed result) is preceded by ``<!-- skip: next "reason" -->``;
pytest's ``-ra`` summary prints the reason.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from sybil import Example, Sybil
from sybil.evaluators.python import PythonEvaluator
from sybil.parsers.markdown import CodeBlockParser, SkipParser

ROOT = Path(__file__).resolve().parent
LINKED = ("examples", "docs", "tests", "stubs", "vscode-extension")
SHELL_TIMEOUT_S = 300
HINT = ('(docs run by conftest.py: a block that is an excerpt or printed output, or that must '
        'not run in the suite, is preceded by <!-- skip: next "why" -->)')
_PYTHON = PythonEvaluator()


def run_python(example: Example) -> None:
    """Run a ``python`` block in the document's namespace; a failure says how to mark a block
    that is not meant to run."""
    try:
        _PYTHON(example)
    except Exception as err:  # pylint: disable=broad-except  # re-raised with the hint
        if type(err).__name__ != "SkipTest":
            err.add_note(HINT)
        raise


def run_shell(example: Example) -> None:
    """Run a ``sh`` block in the document's scratch directory; fail on a non-zero exit."""
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    proc = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", example.parsed],
                          cwd=example.namespace["__workdir__"], env=env, capture_output=True,
                          text=True, timeout=SHELL_TIMEOUT_S, check=False)
    if proc.returncode != 0:
        raise AssertionError(f"shell block exited {proc.returncode}:\n{example.parsed}\n"
                             f"--- stdout\n{proc.stdout[-4000:]}\n--- stderr\n{proc.stderr[-4000:]}"
                             f"\n{HINT}")


def setup(namespace: dict[str, Any]) -> None:
    """A scratch working directory for one document, made current for its Python blocks."""
    work = Path(tempfile.mkdtemp(prefix="tirkit-docs-"))
    for name in LINKED:
        if (ROOT / name).exists():
            (work / name).symlink_to(ROOT / name)
    namespace["__workdir__"] = str(work)
    namespace["__oldcwd__"] = os.getcwd()
    os.chdir(work)


def teardown(namespace: dict[str, Any]) -> None:
    """Back to the old working directory; the scratch directory is removed."""
    os.chdir(namespace["__oldcwd__"])
    shutil.rmtree(namespace["__workdir__"], ignore_errors=True)


class _Docs(Sybil):
    """README.md at the root and docs/*.md, not the READMEs deeper in the tree."""

    def should_parse(self, path: Path) -> bool:
        rel = Path(path).resolve().relative_to(ROOT) if ROOT in Path(path).resolve().parents \
            else None
        return rel is not None and rel.suffix == ".md" and (
            rel == Path("README.md") or rel.parent == Path("docs"))


pytest_collect_file = _Docs(
    parsers=[CodeBlockParser("python", run_python), CodeBlockParser("sh", run_shell),
             SkipParser()],
    setup=setup,
    teardown=teardown,
).pytest()
