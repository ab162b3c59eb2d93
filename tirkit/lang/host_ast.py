"""Units and imports of a host file located with Python's own ``ast`` (no libcst tree).

What :func:`tirkit.lang.host_cst.locate_with_libcst` finds, from the ``ast.Module`` the parser reads
anyway (module constants, static macros): the same :class:`~tirkit.lang.host_scan.FoundUnit` and
:class:`~tirkit.lang.host_imports.ImportBinding` values, offsets included, at a fraction of the
cost of a libcst parse plus a counting codegen pass (issue 18: parse speed). ``tirfmt`` splices
its units at these offsets too (it needs the units' ranges, not the tree); tools that edit inside
a unit's surroundings (code actions) use :meth:`HostFile.parse`.

Only plain text qualifies: no BOM, no ``\\r`` and no form feed (the lines Python counts are then
exactly the ``\\n``-separated lines); :func:`locate_with_ast` returns ``None`` otherwise and the
caller takes the libcst path. No TVM counterpart (TVM reads a unit with ``inspect.getsource``).
"""
from __future__ import annotations

import ast
from typing import Callable, Iterable

from ..ir.span import LineIndex
from .host_imports import UNIT_DECORATORS, HostImports, ImportBinding
from .host_scan import FoundUnit, extend_over_comments, indent_width, line_start

_Arguments = tuple[tuple[tuple[str, str], ...], tuple[str, ...]]
_Defs = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


class _Offsets:
    """``(lineno, col_offset)`` of ``ast`` (1-based line, UTF-8 byte column) -> character offset,
    over the file's :class:`~tirkit.ir.span.LineIndex`."""

    def __init__(self, index: LineIndex) -> None:
        self.index = index

    def at(self, lineno: int, col: int) -> int:
        line = self.index.line_text(lineno)
        if not line.isascii():
            col = len(line.encode("utf-8")[:col].decode("utf-8", "replace"))
        return self.index.offset(lineno, col)

    def line_end(self, lineno: int) -> int:
        """End of line ``lineno`` without its ``\\n``."""
        return self.index.offset(lineno, 0) + len(self.index.line_text(lineno))

    def source(self, node: ast.AST) -> str:
        return self.index.text[self.at(node.lineno, node.col_offset):  # type: ignore[attr-defined]
                               self.at(node.end_lineno,  # type: ignore[attr-defined]
                                       node.end_col_offset)]  # type: ignore[attr-defined]


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = _dotted(node.value)
        return None if head is None else f"{head}.{node.attr}"
    return None


def _decorator_name(expr: ast.expr) -> str | None:
    return _dotted(expr.func if isinstance(expr, ast.Call) else expr)


def _child_bodies(node: ast.stmt) -> Iterable[list[ast.stmt]]:
    """The statement lists inside a compound statement other than a def or class."""
    for name in ("body", "orelse", "finalbody"):
        body = getattr(node, name, None)
        if isinstance(body, list):
            yield body
    for handler in getattr(node, "handlers", ()):
        yield handler.body
    for case in getattr(node, "cases", ()):
        yield case.body


class _Collector:
    """Statements only (never expressions): imports with their scopes, decorated defs."""

    def __init__(self) -> None:
        self.imports: list[tuple[ast.stmt, str | None, str, str | None, str]] = []
        self.candidates: list[tuple[ast.stmt, list[str | None], str, bool]] = []

    def walk(self, body: list[ast.stmt], scope: str, nested: bool) -> None:
        for node in body:
            if isinstance(node, ast.Import):
                self.imports.extend((node, None, a.name, a.asname, scope) for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                if not node.level and node.module is not None:
                    self.imports.extend((node, node.module, a.name, a.asname, scope)
                                        for a in node.names if a.name != "*")
            elif isinstance(node, _Defs):
                self._add_def(node, scope, nested)
            else:
                for inner in _child_bodies(node):
                    self.walk(inner, scope, nested)

    def _add_def(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef, scope: str,
                 nested: bool) -> None:
        if node.decorator_list:
            names = [_decorator_name(d) for d in node.decorator_list]
            if any(names):
                self.candidates.append((node, names, scope, nested))
        qualname = f"{scope}.{node.name}" if scope else node.name
        if isinstance(node, ast.ClassDef):
            self.walk(node.body, qualname, nested)
        else:
            self.walk(node.body, qualname + ".<locals>", True)


def _at_sign(text: str, offset: int) -> int:
    """Offset of the ``@`` before a decorator expression starting at ``offset``."""
    return text.rindex("@", 0, offset + 1)


def _name_offset(text: str, start: int, keyword: str) -> int:
    """Offset of the name after ``def``/``class`` in the statement starting at ``start``
    (``async def`` included)."""
    pos = text.index(keyword, start) + len(keyword)
    while text[pos] in " \t\\\n":
        pos += 1
    return pos


def _arguments(expr: ast.expr, off: _Offsets) -> _Arguments:
    if not isinstance(expr, ast.Call):
        return (), ()
    keywords = tuple((kw.arg, off.source(kw.value)) for kw in expr.keywords if kw.arg is not None)
    return keywords, tuple(off.source(arg) for arg in expr.args)


def _parse(text: str) -> ast.Module | None:
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _last_lineno(node: ast.stmt) -> int:
    return node.end_lineno or node.lineno


def locate_with_ast(text: str, tree: Callable[[], ast.Module | None] | None = None,
                    index: LineIndex | None = None,
                    ) -> tuple[HostImports, list[FoundUnit]] | None:
    """Imports and units of ``text`` (what the libcst locator gives), or ``None`` when ``text``
    does not qualify (see the module docstring) or is not valid Python. ``tree()`` returns
    ``ast.parse(text)`` (``None`` when it failed) where the caller caches it; ``index`` is the
    text's ``LineIndex`` when the caller has one. Never raises on bad input."""
    if "\r" in text or "\f" in text or text.startswith("\ufeff"):
        return None
    module = tree() if tree is not None else _parse(text)
    if module is None:
        return None
    off = _Offsets(index if index is not None else LineIndex(text))
    collector = _Collector()
    try:
        collector.walk(module.body, "", False)
        return _found(text, off, collector)
    except (ValueError, IndexError, RecursionError):  # an offset that did not line up
        return None


def _found(text: str, off: _Offsets, collector: _Collector
           ) -> tuple[HostImports, list[FoundUnit]]:
    imports = HostImports(
        b for node, mod, name, asname, scope in collector.imports
        if (b := ImportBinding.make(mod, name, asname, off.at(node.lineno, node.col_offset),
                                    scope)) is not None)
    found = []
    for node, names, scope, nested in collector.candidates:
        unit = _resolve(text, off, node, names, scope, nested, imports.resolve)
        if unit is not None:
            found.append(unit)
    return imports, found


def _resolve(text: str, off: _Offsets, node, names: list[str | None], scope: str, nested: bool,
             resolve: Callable[..., str | None]) -> FoundUnit | None:
    first = node.decorator_list[0]
    at = _at_sign(text, off.at(first.lineno, first.col_offset))
    is_def = not isinstance(node, ast.ClassDef)
    for decorator, dotted in zip(node.decorator_list, names):
        canonical = resolve(dotted, at, scope) if dotted else None
        kind = UNIT_DECORATORS.get(canonical or "")
        if canonical is None or kind is None or (kind == "prim_func") != is_def:
            continue
        width = indent_width(text[line_start(text, at):at])
        keyword = "def" if is_def else "class"
        end = off.line_end(_last_lineno(node.body[-1]))
        return FoundUnit(
            decorator_start=at, decorator=off.source(decorator), canonical=canonical,
            keyword=keyword, name=node.name,
            name_offset=_name_offset(text, off.at(node.lineno, node.col_offset), keyword),
            end=extend_over_comments(text, end, width), width=width, nested=nested, scope=scope,
            arguments=_arguments(decorator, off))
    return None
