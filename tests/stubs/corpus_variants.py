"""The TVMScript corpus (tests/lang/cases) as the type-checker acceptance checks read it: as is
(``from tvm.script import tir as T``, checked against the installed tvm-stubs) and with every
``tvm.script`` import turned into its ``tirkit.lang`` spelling (checked against tirkit's stubs)."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CASES = REPO / "tests" / "lang" / "cases"
HERE = Path(__file__).resolve().parent

#: (pattern, replacement) applied line by line for the tirkit variant
_TIRKIT = [
    (r"^from tvm\.script import tirx as", "from tirkit.lang import tir as"),
    (r"^from tvm\.script import", "from tirkit.lang import"),
    (r"^import tvm\.script\.tir as", "import tirkit.lang.tir as"),
    (r"^import tvm$", "import tirkit.lang"),
    (r"\btvm\.script\.ir_module\b", "tirkit.lang.ir.ir_module"),
    (r"\btvm\.script\.tir\.", "tirkit.lang.tir."),
]


def to_tirkit(text: str) -> str:
    """``text`` with its ``tvm.script`` imports and qualified names spelled ``tirkit.lang``."""
    lines = []
    for line in text.splitlines(keepends=True):
        for pattern, repl in _TIRKIT:
            line = re.sub(pattern, repl, line)
        lines.append(line)
    return "".join(lines)


def write_variant(dest: Path, variant: str) -> Path:
    """Copy the corpus into ``dest`` (``variant`` ``"tvm"``: unchanged, ``"tirkit"``:
    substituted); returns ``dest``."""
    dest.mkdir(parents=True, exist_ok=True)
    for path in sorted(CASES.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        if variant == "tirkit":
            text = to_tirkit(text)
            code = [ln for ln in text.splitlines() if not ln.lstrip().startswith("#")]
            assert not any("tvm.script" in ln or re.match(r"\s*import tvm\b", ln)
                           for ln in code), f"{path.name}: a tvm import left"
        (dest / path.name).write_text(text, encoding="utf-8")
    return dest


def mypy_config(dest: Path) -> Path:
    """The documented mypy configuration (tests/stubs/mypy.ini) plus the two lines that stand in
    for a regular install of tirkit (found on ``mypy_path``; errors inside tirkit's own source
    silenced as mypy does for site-packages)."""
    text = (HERE / "mypy.ini").read_text(encoding="utf-8")
    text = text.replace("[mypy]\n", f"[mypy]\nmypy_path = {REPO}\n", 1)
    text += "\n[mypy-tirkit.*]\nfollow_imports = silent\n"
    path = dest / "mypy.ini"
    path.write_text(text, encoding="utf-8")
    return path


def copy_pylintrc(dest: Path) -> Path:
    """The documented pylint configuration, next to the corpus copy."""
    return Path(shutil.copy(HERE / "pylintrc", dest / "pylintrc"))
