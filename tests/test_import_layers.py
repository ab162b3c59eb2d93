"""No import cycles between the modules of tirkit (house rule; DESIGN.md §2: arrows point down).

The graph is built from the source alone (``ast``): every ``import`` / ``from ... import`` of a
tirkit module anywhere in a file is an arrow, those inside functions included (a lazy import is
still a dependency). A lower module that must call into a higher one reads the function from a
slot of :mod:`tirkit._layers`, which the higher module fills at its import.
"""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import tirkit

ROOT = Path(tirkit.__file__).resolve().parent


def _modules() -> dict[str, Path]:
    mods = {}
    for path in ROOT.rglob("*.py"):
        parts = ("tirkit",) + path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        mods[".".join(parts)] = path
    return mods


def _targets(mod: str, is_pkg: bool, node: ast.AST, mods: dict[str, Path]) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name in mods]
    assert isinstance(node, ast.ImportFrom)
    if node.level:
        base = mod if is_pkg else mod.rsplit(".", 1)[0]
        for _ in range(node.level - 1):
            base = base.rsplit(".", 1)[0]
        target = f"{base}.{node.module}" if node.module else base
    else:
        target = node.module or ""
    out = []
    for alias in node.names:
        if f"{target}.{alias.name}" in mods:
            out.append(f"{target}.{alias.name}")
        elif target in mods:
            out.append(target)
    return out


def _import_statements(stmts: list) -> list[ast.Import | ast.ImportFrom]:
    """The import statements among ``stmts`` and the statements nested in them (what
    ``ast.walk`` finds, without visiting expressions, which hold no statement)."""
    out = []
    for stmt in stmts:
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            out.append(stmt)
            continue
        for name in ("body", "orelse", "finalbody", "handlers", "cases"):
            inner = getattr(stmt, name, None)
            if inner:
                out += _import_statements(inner)
    return out


def import_graph() -> dict[str, set[str]]:
    """``module -> the tirkit modules it imports`` for every file of the package."""
    mods = _modules()
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for mod, path in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        is_pkg = path.name == "__init__.py"
        for node in _import_statements(tree.body):
            graph[mod].update(t for t in _targets(mod, is_pkg, node, mods)
                              if t.startswith("tirkit") and t != mod)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            v, children = work[-1]
            w = next(children, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def test_no_import_cycles():
    graph = import_graph()
    found = cycles(graph)
    lines = []
    for comp in found:
        members = set(comp)
        lines.append(f"{len(comp)} modules:")
        lines += [f"  {m} -> {sorted(graph[m] & members)}" for m in comp]
    assert not found, "import cycles (break them with a tirkit._layers slot):\n" + "\n".join(lines)


def test_cycle_finder_sees_a_lazy_import():
    graph = {"tirkit.a": {"tirkit.b"}, "tirkit.b": {"tirkit.c"}, "tirkit.c": {"tirkit.a"},
             "tirkit.d": {"tirkit.a"}}
    assert cycles(graph) == [["tirkit.a", "tirkit.b", "tirkit.c"]]
    tree = ast.parse("class C:\n    def f(self):\n        if x:\n            pass\n"
                     "        else:\n            try:\n                pass\n"
                     "            except E:\n                from ..tir import op\n")
    [node] = _import_statements(tree.body)
    mods = {"tirkit.ir.expr": Path(), "tirkit.tir": Path(), "tirkit.tir.op": Path()}
    assert _targets("tirkit.ir.expr", False, node, mods) == ["tirkit.tir.op"]


@pytest.mark.parametrize("slot", ["tir.op", "tir.stmt", "tir.op_intrin", "tir.stmt_functor",
                                  "index_map_inverse", "arith", "script",
                                  "parse_python_function", "parse_python_class"])
def test_every_slot_is_provided(slot):
    from tirkit import _layers  # pylint: disable=import-outside-toplevel

    assert _layers.get(slot) is not None


def test_a_slot_read_first_imports_its_module():
    """In a fresh process: an operator on an ir constant imports tirkit.tir.op, a buffer slice
    imports arith (TVM simplifies the extent), ``script()`` imports the printer."""
    code = "\n".join([
        "import sys",
        "from tirkit.ir import IntImm",
        "assert 'tirkit.tir' not in sys.modules",
        "x = IntImm('int32', 1) + 2",
        "assert type(x) is IntImm and x.value == 3 and 'tirkit.tir.op' in sys.modules",
        "from tirkit.tir import decl_buffer",
        "assert 'tirkit.arith' not in sys.modules",
        "region = decl_buffer((8,), name='A')[2:6]",
        "assert type(region).__name__ == 'BufferRegion' and region.region[0].extent.value == 4",
        "assert 'tirkit.printer' not in sys.modules",
        "assert x.script() == '3', x.script()",
    ])
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT.parent)
