"""Every code block of README.md and docs/*.md is either run by the suite (``python`` and ``sh``
blocks, through Sybil: see the repository's conftest.py) or in a language that is not a program
(TOML, INI, plain text): a ``bash``/``py``/``console`` fence would silently escape the docs run.
"""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUN = {"python", "sh"}
NOT_PROGRAMS = {"", "toml", "ini", "text", "json", "diff", "yaml"}


def fences(path):
    return re.findall(r"^```(\S*)[^\n]*\n", path.read_text(encoding="utf-8"), flags=re.M)


def test_every_block_is_run_or_not_a_program():
    docs = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    langs = {}
    for path in docs:
        # opening fences only: every other ``` line closes a block
        for lang in fences(path)[0::2]:
            langs.setdefault(lang, []).append(path.name)
    unknown = {k: v for k, v in langs.items() if k not in RUN | NOT_PROGRAMS}
    assert not unknown, f"blocks neither run nor plain data (use ```python or ```sh): {unknown}"
    assert len(langs.get("python", [])) >= 10 and "sh" in langs


def test_the_docs_run_is_collected():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'testpaths = \[[^\]]*"README.md"[^\]]*"docs"', text)
    assert "sybil" in (ROOT / "conftest.py").read_text(encoding="utf-8")
