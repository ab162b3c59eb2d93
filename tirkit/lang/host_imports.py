"""Import bindings of a host Python file and the resolution of dotted names to canonical TVMScript
names (``"T.prim_func"`` -> ``"tir.prim_func"``), done statically from the file's own import
statements.

TVM resolves decorator names by running them: ``@T.prim_func`` is whatever object ``T`` is bound
to when Python executes the decorator. Static tools cannot run the file (DESIGN.md §3.5), so this
module reads what the import statements bind instead. Canonical names are ``"tir"``, ``"tirx"``, ``"ir"``
(the TVMScript namespaces ``tvm.script.tir``, ``tvm.script.tirx``, ``tvm.script.ir``, or tirkit's
``tirkit.lang.tir`` / ``tirkit.lang.ir``) followed by the attribute path inside them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

#: Fully qualified module paths that are a TVMScript namespace, by canonical name.
CANONICAL_MODULES: dict[str, str] = {
    "tvm.script.tir": "tir",
    "tvm.script.parser.tir": "tir",
    "tvm.script.tirx": "tirx",
    "tvm.script.parser.tirx": "tirx",
    "tvm.script.ir": "ir",
    "tvm.script.parser.ir": "ir",
    "tirkit.lang.tir": "tir",
    "tirkit.lang.tirx": "tirx",
    "tirkit.lang.ir": "ir",
    "tvm.script.relax": "relax",
    "tvm.script.parser.relax": "relax",
    "tirkit.lang.relax": "relax",
}

#: Fully qualified names re-exported outside their namespace (``tvm.script.ir_module``).
CANONICAL_ALIASES: dict[str, str] = {
    "tvm.script.ir_module": "ir.ir_module",
    "tvm.script.parser.ir_module": "ir.ir_module",
}

#: Canonical decorator names that make a TVMScript unit, with the unit kind they make.
UNIT_DECORATORS: dict[str, str] = {
    "tir.prim_func": "prim_func",
    "tirx.prim_func": "prim_func",
    "ir.ir_module": "ir_module",
    "relax.function": "relax_function",
}

#: Unit kinds made by a ``def`` (the others are classes). An ``@R.function`` is not a unit of
#: its own: it is parsed with its ``@I.ir_module`` class, in the libcst path
#: (``host._resolve_candidate``) and in the line scan alike.
DEF_UNITS = frozenset({"prim_func"})


def canonicalize(qualified: str) -> str | None:
    """The canonical TVMScript name of a fully qualified dotted name, or ``None`` when it is not
    inside a TVMScript namespace. ``"tvm.script.tir.prim_func"`` -> ``"tir.prim_func"``,
    ``"tvm.script.ir_module"`` -> ``"ir.ir_module"``, ``"torch.sin"`` -> ``None``.

    No TVM counterpart (TVM imports the module and gets the object itself).
    """
    parts = qualified.split(".")
    for k in range(len(parts), 0, -1):
        prefix = ".".join(parts[:k])
        base = CANONICAL_ALIASES.get(prefix) or CANONICAL_MODULES.get(prefix)
        if base is not None:
            return ".".join([base, *parts[k:]])
    return None


@dataclass(frozen=True, slots=True)
class ImportBinding:
    """One local name bound by an import statement of the host file.

    ``name`` is the local name (``"T"``), ``target`` the fully qualified dotted path it is bound to
    (``"tvm.script.tir"``; for ``import tvm.script`` the name ``"tvm"`` is bound to ``"tvm"``, as in
    Python), ``canonical`` the canonical TVMScript name of the target or ``None``, ``offset`` the
    character offset of the import statement in the file (``-1`` if unknown) and ``scope`` the
    ``__qualname__`` of the function whose body holds the import (``""`` at module level).
    No TVM counterpart (the static stand-in for Python's name binding).
    """

    name: str
    target: str
    canonical: str | None
    offset: int = -1
    scope: str = ""

    @staticmethod
    def make(module: str | None, name: str, asname: str | None, offset: int = -1,
             scope: str = "") -> "ImportBinding | None":
        """The binding made by ``import name [as asname]`` (``module=None``) or
        ``from module import name [as asname]``; ``None`` for ``import *`` and relative imports."""
        if name == "*" or (module is not None and module.startswith(".")):
            return None
        if module is None:
            local = asname or name.split(".")[0]
            target = name if asname else local
        else:
            local = asname or name
            target = f"{module}.{name}"
        return ImportBinding(local, target, canonicalize(target), offset, scope)


def _visible(binding: ImportBinding, scope: str) -> bool:
    return not binding.scope or scope == binding.scope or scope.startswith(binding.scope + ".")


class HostImports:
    """The import bindings of one host file, in source order, and name resolution through them.

    Resolution follows Python's order of execution as far as it can be known statically: at a
    position ``at`` (a character offset) inside function scope ``scope``, a name means the latest
    visible binding before ``at``; if there is none before, the first visible one after (a function
    body may use a module import that appears later in the file). ``at=None`` means the end of the
    file. Re-binding by assignment (``T = ...``) is not tracked. No TVM counterpart.
    """

    __slots__ = ("bindings",)

    def __init__(self, bindings: Iterable[ImportBinding]) -> None:
        self.bindings: tuple[ImportBinding, ...] = tuple(
            sorted(bindings, key=lambda b: b.offset))

    def lookup(self, name: str, at: int | None = None, scope: str = "") -> ImportBinding | None:
        """The binding of local ``name`` in force at offset ``at`` in ``scope``, or ``None``."""
        before: ImportBinding | None = None
        after: ImportBinding | None = None
        for binding in self.bindings:
            if binding.name != name or not _visible(binding, scope):
                continue
            if at is None or binding.offset < at:
                before = binding
            elif after is None:
                after = binding
        return before or after

    def resolve(self, dotted: str, at: int | None = None, scope: str = "") -> str | None:
        """The canonical name a dotted name of the file means, e.g. ``"T.prim_func"`` ->
        ``"tir.prim_func"`` after ``from tvm.script import tir as T``; ``None`` when the name is
        not bound by an import to something inside a TVMScript namespace."""
        head, _, rest = dotted.partition(".")
        binding = self.lookup(head, at, scope)
        if binding is None:
            return None
        return canonicalize(f"{binding.target}.{rest}" if rest else binding.target)

    def aliases(self, at: int | None = None, scope: str = "") -> dict[str, str]:
        """Local names bound to a whole TVMScript namespace at ``at``: ``{"T": "tir", "I": "ir"}``
        (values are ``"tir"``, ``"tirx"`` or ``"ir"``)."""
        out: dict[str, str] = {}
        for name in dict.fromkeys(b.name for b in self.bindings):
            binding = self.lookup(name, at, scope)
            if binding is not None and binding.canonical in ("tir", "tirx", "ir", "relax"):
                out[name] = binding.canonical
        return out

    def __iter__(self):
        return iter(self.bindings)

    def __len__(self) -> int:
        return len(self.bindings)

    def __repr__(self) -> str:
        return f"HostImports({list(self.bindings)!r})"
