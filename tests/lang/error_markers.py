"""Reads the inline markers of ``tests/lang/errors/*.py`` (format: tests/lang/errors/README.md)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

_ERROR = re.compile(r"# (error|warning): (.*?)(?=\s+# (?:error|warning): |$)")
_CARETS = re.compile(r"^#(\s*)(\^+)\s*$")


@dataclass(frozen=True)
class Expected:
    """One expected diagnostic: 1-based line, 0-based [start, end) columns, message substring."""

    line: int
    start: int
    end: int
    text: str
    severity: str = "error"


def read_markers(path: Path) -> list[Expected]:
    """Every expected diagnostic of a marked file, in file order."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out: list[Expected] = []
    for idx, line in enumerate(lines):
        items = _ERROR.findall(line)
        if not items or _CARETS.match(line):
            continue
        carets = []
        for follow in lines[idx + 1: idx + 1 + len(items)]:
            m = _CARETS.match(follow)
            if not m:
                break
            start = follow.index("^")
            carets.append((start, start + len(m.group(2))))
        for k, (severity, text) in enumerate(items):
            start, end = carets[k] if k < len(carets) else (-1, -1)
            out.append(Expected(idx + 1, start, end, text.strip(), severity))
    return out
