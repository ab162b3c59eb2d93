"""The CPU and feature names LLVM knows for a triple (what ``llc -mcpu=help`` lists), so that a
misspelt ``-mcpu``/``-mattr`` is refused by name. No TVM counterpart: TVM hands the names to
LLVM, which warns ``'nonsense' is not a recognized processor`` once per function and, for an
x86-64 triple, then aborts the process (``LLVM ERROR: 64-bit code requested on a subtarget that
doesn't support it``).

LLVM prints the lists only when a target machine is created with ``cpu="help"`` and used, on
its own standard error, once per process: they are read from a child interpreter, once per
triple per process, and only for targets that name a CPU or features explicitly.
"""
from __future__ import annotations

import difflib
import subprocess
import sys
from functools import lru_cache

__all__ = ["known_names", "check_cpu_and_features"]

_LIST = """
import sys
import llvmlite.binding as llvm
llvm.initialize_all_targets()
llvm.initialize_all_asmprinters()
machine = llvm.Target.from_triple(sys.argv[1]).create_target_machine(cpu="help", features="")
module = llvm.parse_assembly("define void @f() { ret void }")
module.triple = sys.argv[1]
machine.emit_assembly(module)
"""


@lru_cache(maxsize=None)
def known_names(triple: str) -> tuple[frozenset[str], frozenset[str]] | None:
    """``(cpus, features)`` LLVM lists for ``triple``, or ``None`` when they cannot be read
    (then nothing is checked)."""
    try:
        res = subprocess.run([sys.executable, "-c", _LIST, triple], capture_output=True,
                             text=True, timeout=120, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    cpus: set[str] = set()
    features: set[str] = set()
    section: set[str] | None = None
    for line in (res.stderr + "\n" + res.stdout).splitlines():
        if line.startswith("Available CPUs"):
            section = cpus
        elif line.startswith("Available features"):
            section = features
        elif line.startswith("  ") and section is not None and " - " in line:
            section.add(line.split()[0])
        elif line.strip() and not line.startswith(" "):
            section = None
    return (frozenset(cpus), frozenset(features)) if cpus else None


def check_cpu_and_features(triple: str, mcpu: str, mattr: tuple[str, ...]) -> None:
    """Refuse a CPU or feature name LLVM does not know for ``triple``.

    Raises:
        ValueError: naming the unknown ``-mcpu`` or ``-mattr`` entry and the closest names.
    """
    known = known_names(triple)
    if known is None:
        return
    cpus, features = known
    if mcpu and mcpu not in cpus:
        raise ValueError(f"unknown -mcpu {mcpu!r} for {triple}{_close(mcpu, cpus)}")
    for entry in mattr:
        for item in entry.split(","):
            name = item.lstrip("+-")
            if not item.startswith(("+", "-")):
                raise ValueError(f"-mattr entry {item!r}: write +{name} to enable the feature or "
                                 f"-{name} to disable it")
            if name not in features:
                raise ValueError(f"unknown -mattr feature {name!r} for {triple}"
                                 f"{_close(name, features)}")


def _close(name: str, names: frozenset[str]) -> str:
    close = difflib.get_close_matches(name, sorted(names), n=3)
    return f"; did you mean {', '.join(close)}?" if close else f" ({len(names)} names known)"
