"""The lossless host layer: a Python file parsed with libcst, its TVMScript units located
statically, and replacement text spliced into units leaving every other byte of the file unchanged
(DESIGN.md §3.1).

TVM's parser (``tvm.script.parser.core.parser`` via ``tvm.script.parser.core.entry.parse``) finds a
unit's source at import time with ``inspect.getsource`` on the decorated object, i.e. it needs the
file to be executed. This layer is the static counterpart: it reads the file's own import statements
to know which names mean ``T.prim_func`` / ``I.ir_module`` and never executes anything
(DESIGN.md §3.5). When libcst cannot parse the file (the user is typing), units are located by
their decorator lines instead (:mod:`tirkit.lang.host_scan`) and marked ``recovered``.

Offset convention (all offsets are 0-based character offsets into the file text): a unit's
``start`` is the beginning of the line of its first decorator (column 0), so ``text`` is a
uniformly indented block whose first line is ``indent + "@..."``; ``end`` is the end of the unit's
last line *without* its line terminator (see :mod:`tirkit.lang.host_scan` for which trailing
comment lines belong to a unit). ``span`` is the same range in file coordinates
(:class:`~tirkit.ir.span.LineIndex`).
"""
from __future__ import annotations

import ast
import warnings
from contextlib import nullcontext
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Callable, Iterator, Mapping, Sequence

import libcst as cst
from libcst._nodes.internal import CodegenState

from ..ir.diagnostics import Diagnostic, Note
from ..ir.span import LineIndex, Span
from .host_ast import locate_with_ast
from .host_imports import UNIT_DECORATORS, HostImports, ImportBinding
from .limits import check_text, deep_recursion
from .host_scan import (FoundUnit, extend_over_comments, indent_width, line_start, scan_imports,
                        scan_lines, scan_units, split_lines)

__all__ = ["HostFile", "Unit", "HostImports", "ImportBinding", "splice"]


@dataclass(frozen=True, slots=True)
class Unit:
    """One TVMScript unit of a host file: a ``@T.prim_func`` function or an ``@I.ir_module`` class.

    Mirrors what TVM's ``tvm.script.parser.core.entry.parse`` receives from ``inspect.getsource``
    (the decorated source), located statically. Fields: ``kind`` (``"prim_func"`` |
    ``"ir_module"``), ``name``, ``qualname`` (Python's ``__qualname__``, e.g.
    ``"gen_matmul.<locals>.f"``), ``dialect`` (``"tir"`` | ``"tirx"``), ``start``/``end``/``indent``
    /``span``/``text`` (see the module docstring for the convention), ``decorator`` (source of the
    unit decorator's expression without ``@``, e.g. ``"T.prim_func(private=True)"``),
    ``decorator_args`` (keyword -> argument source, ``{"private": "True"}``),
    ``decorator_positional`` (positional argument sources), ``aliases`` (local alias -> ``"tir"`` /
    ``"tirx"`` / ``"ir"`` in force at the unit), ``name_offset`` (offset of the name after
    ``def``/``class``), ``members`` (the prim_func methods of an ir_module class), ``nested``
    (defined inside a function, e.g. a decorator-mode generator) and ``recovered`` (located by the
    line-based fallback because the file is not valid Python). Units are hashable (the mappings are
    read-only and excluded from equality).
    """

    kind: str
    name: str
    qualname: str
    dialect: str
    start: int
    end: int
    indent: str
    span: Span
    text: str
    decorator: str
    decorator_args: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}),
                                              compare=False)
    decorator_positional: tuple[str, ...] = ()
    aliases: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}),
                                       compare=False)
    name_offset: int = -1
    members: tuple["Unit", ...] = ()
    nested: bool = False
    recovered: bool = False


def splice(text: str, edits: Sequence[tuple[int, int, str]]) -> str:
    """``text`` with each ``(start, end, replacement)`` edit applied; every character outside the
    edited ranges is kept as is. No TVM counterpart.

    Raises ``ValueError`` when a range is out of bounds or two ranges overlap.
    """
    out: list[str] = []
    pos = 0
    for start, end, replacement in sorted(edits, key=lambda e: (e[0], e[1])):
        if not 0 <= start <= end <= len(text):
            raise ValueError(f"edit range [{start}, {end}) is outside the text "
                             f"(length {len(text)})")
        if start < pos:
            raise ValueError(f"edit range [{start}, {end}) overlaps the previous edit")
        out.append(text[pos:start])
        out.append(replacement)
        pos = end
    out.append(text[pos:])
    return "".join(out)


class _OffsetState(CodegenState):
    """A libcst code generator that also counts characters, recording the offsets of watched
    nodes: the syntactic start of nodes in ``watch_starts`` and the end (after trailing
    whitespace/newline) of nodes in ``watch_ends``. One pass over the module gives all offsets
    and the regenerated code (``"".join(tokens)``), which must equal the text for the offsets to
    be trusted."""

    def __init__(self, module: cst.Module, watch_starts: set[int], watch_ends: set[int],
                 base: int = 0) -> None:
        super().__init__(default_indent=module.default_indent,
                         default_newline=module.default_newline)
        self.offset = base
        self.watch_starts, self.watch_ends = watch_starts, watch_ends
        self.starts: dict[int, int] = {}
        self.ends: dict[int, int] = {}

    def add_token(self, value: str) -> None:
        self.tokens.append(value)
        self.offset += len(value)

    def add_indent_tokens(self) -> None:
        self.tokens.extend(self.indent_tokens)
        for token in self.indent_tokens:
            self.offset += len(token)

    def after_codegen(self, node: cst.CSTNode) -> None:
        if id(node) in self.watch_ends:
            self.ends[id(node)] = self.offset

    def record_syntactic_position(self, node, *, start_node=None, end_node=None):
        if id(node) in self.watch_starts:
            self.starts[id(node)] = self.offset
        return _NULL_CONTEXT


_NULL_CONTEXT = nullcontext()
_Arguments = tuple[tuple[tuple[str, str], ...], tuple[str, ...]]

_STATEMENTISH = (cst.BaseStatement, cst.BaseSuite, cst.Else, cst.ExceptHandler,
                 cst.ExceptStarHandler, cst.Finally, cst.MatchCase)


def _dotted(node: cst.BaseExpression | None) -> str | None:
    """``"a.b.c"`` for a Name/Attribute chain, else ``None``."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        head = _dotted(node.value)
        return None if head is None else f"{head}.{node.attr.value}"
    return None


def _decorator_name(decorator: cst.Decorator) -> str | None:
    expr = decorator.decorator
    return _dotted(expr.func if isinstance(expr, cst.Call) else expr)


def _last_line(node: cst.CSTNode) -> cst.CSTNode:
    """The last simple statement line (or one-line suite) of a compound statement's body."""
    while not isinstance(node, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
        if isinstance(node, cst.IndentedBlock):
            node = node.body[-1]
        else:
            node = [child for child in node.children if isinstance(child, _STATEMENTISH)][-1]
    return node


@dataclass(slots=True)
class _Candidate:
    node: cst.FunctionDef | cst.ClassDef
    names: list[str | None]
    scope: str
    nested: bool


class _Collector:
    """Walks statements only (never expressions) collecting imports and decorated defs."""

    def __init__(self) -> None:
        self.imports: list[tuple[cst.CSTNode, str | None, str, str | None, str]] = []
        self.candidates: list[_Candidate] = []

    def walk(self, node: cst.CSTNode, scope: str, nested: bool) -> None:
        if isinstance(node, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            for small in node.body:
                if isinstance(small, (cst.Import, cst.ImportFrom)):
                    self._add_import(small, scope)
        elif isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            self._add_def(node, scope, nested)
        elif isinstance(node, (cst.Module, cst.IndentedBlock)):
            for child in node.body:
                self.walk(child, scope, nested)
        else:
            for part in node.children:
                if isinstance(part, _STATEMENTISH):
                    self.walk(part, scope, nested)

    def _add_def(self, node: cst.FunctionDef | cst.ClassDef, scope: str, nested: bool) -> None:
        if node.decorators:
            names = [_decorator_name(d) for d in node.decorators]
            if any(names):
                self.candidates.append(_Candidate(node, names, scope, nested))
        qualname = f"{scope}.{node.name.value}" if scope else node.name.value
        if isinstance(node, cst.FunctionDef):
            self.walk(node.body, qualname + ".<locals>", True)
        else:
            self.walk(node.body, qualname, nested)

    def _add_import(self, node: cst.Import | cst.ImportFrom, scope: str) -> None:
        if isinstance(node, cst.Import):
            for alias in node.names:
                asname = alias.asname.name if alias.asname else None
                self.imports.append((node, None, _dotted(alias.name) or "",
                                     _dotted(asname) if asname else None, scope))
        elif not node.relative and not isinstance(node.names, cst.ImportStar):
            module = _dotted(node.module)
            for alias in node.names:
                asname = alias.asname.name if alias.asname else None
                self.imports.append((node, module, _dotted(alias.name) or "",
                                     _dotted(asname) if asname else None, scope))


def _locate_with_libcst(module: cst.Module, text: str,
                        base: int) -> tuple[HostImports, list[FoundUnit], str]:
    """Imports and units of a parsed module, with offsets from one counting codegen pass over the
    module parsed from ``text[base:]``, and the code libcst regenerates."""
    collector = _Collector()
    collector.walk(module, "", False)
    starts = {id(c.node.decorators[0]) for c in collector.candidates}
    starts |= {id(c.node.name) for c in collector.candidates}
    starts |= {id(entry[0]) for entry in collector.imports}
    lasts = {id(c.node): _last_line(c.node.body) for c in collector.candidates}
    state = _OffsetState(module, starts, {id(node) for node in lasts.values()}, base)
    module._codegen(state)  # pylint: disable=protected-access
    code = text[:base] + "".join(state.tokens)
    if code != text:
        return HostImports(()), [], code
    imports = HostImports(
        b for node, mod, name, asname, scope in collector.imports
        if (b := ImportBinding.make(mod, name, asname, state.starts[id(node)], scope)) is not None)
    found = []
    for cand in collector.candidates:
        unit = _resolve_candidate(module, text, cand, imports, state,
                                  state.ends[id(lasts[id(cand.node)])])
        if unit is not None:
            found.append(unit)
    return imports, found, code


def _locate_by_lines(text: str) -> tuple[HostImports, list[FoundUnit]]:
    """Imports and units found by the line-based scanner (:mod:`tirkit.lang.host_scan`)."""
    lines = scan_lines(text)
    imports = HostImports(scan_imports(text, lines))
    return imports, scan_units(text, lines, imports.resolve)


def _strip_terminator(text: str, end: int) -> int:
    end = min(end, len(text))
    if end and text[end - 1] == "\n":
        end -= 1
    if end and text[end - 1] == "\r":
        end -= 1
    return end


def _resolve_candidate(module: cst.Module, text: str, cand: _Candidate, imports: HostImports,
                       state: _OffsetState, last_end: int) -> FoundUnit | None:
    at = state.starts[id(cand.node.decorators[0])]
    is_def = isinstance(cand.node, cst.FunctionDef)
    for decorator, dotted in zip(cand.node.decorators, cand.names):
        canonical = imports.resolve(dotted, at, cand.scope) if dotted else None
        kind = UNIT_DECORATORS.get(canonical or "")
        if canonical is None or kind is None or (kind == "prim_func") != is_def:
            continue
        width = indent_width(text[line_start(text, at):at])
        return FoundUnit(
            decorator_start=at, decorator=module.code_for_node(decorator.decorator),
            canonical=canonical, keyword="def" if is_def else "class",
            name=cand.node.name.value, name_offset=state.starts[id(cand.node.name)],
            end=extend_over_comments(text, _strip_terminator(text, last_end), width),
            width=width, nested=cand.nested, scope=cand.scope,
            arguments=_call_arguments(decorator.decorator, module))
    return None


def _call_arguments(expr: cst.BaseExpression, holder: cst.Module) -> _Arguments:
    """Keyword and positional argument sources of a decorator expression (never evaluated)."""
    if not isinstance(expr, cst.Call):
        return (), ()
    keywords = tuple((arg.keyword.value, holder.code_for_node(arg.value))
                     for arg in expr.args if arg.keyword is not None)
    positional = tuple(holder.code_for_node(arg.value) for arg in expr.args
                       if arg.keyword is None)
    return keywords, positional


def _source_arguments(source: str) -> _Arguments:
    """:func:`_call_arguments` of decorator source text (recovered units); ``((), ())`` when the
    text does not parse."""
    try:
        return _call_arguments(cst.parse_expression(source), cst.Module([]))
    except Exception:  # pylint: disable=broad-except  # recovered text may not parse
        return (), ()


def _position(lines: list, line: int | None, column: int | None) -> int:
    """Character offset of 1-based ``line`` and 0-based ``column``, clamped into the text."""
    entry = lines[min(max(line or 1, 1), len(lines)) - 1]
    return min(entry.start + max(column or 0, 0), entry.end)


def _python_syntax_error(text: str, lines: list) -> tuple[int, int, str] | None:
    """``(start, end, message)`` of the syntax error CPython's own parser reports for ``text``
    (``ast.parse`` compiles to a tree only and executes nothing), or ``None`` if it accepts it."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(text)
    except SyntaxError as error:
        start = _position(lines, error.lineno, (error.offset or 1) - 1)
        end = start
        if error.end_lineno is not None and error.end_offset is not None:
            end = _position(lines, error.end_lineno, error.end_offset - 1)
        if end <= start:
            end = min(start + 1, lines[min(max(error.lineno or 1, 1), len(lines)) - 1].end)
        return start, max(end, start), error.msg
    except (ValueError, RecursionError, MemoryError) as error:
        return 0, 0, str(error)
    return None


def _syntax_diagnostic(text: str, index: LineIndex, error: Exception) -> Diagnostic:
    """The diagnostic for a file libcst cannot parse. CPython's position and message are used when
    CPython rejects the file too (they point at the real mistake, e.g. an unclosed bracket);
    otherwise the position libcst reports. libcst's own message is kept as a note."""
    lines = split_lines(text)
    libcst_message = error.message if isinstance(error, cst.ParserSyntaxError) else str(error)
    notes = [Note(f"libcst: {libcst_message}")]
    python = _python_syntax_error(text, lines)
    if python is not None:
        start, end, message = python
        return Diagnostic.error("syntax", index.span(start, end),
                                f"invalid Python syntax: {message}", notes)
    if isinstance(error, cst.ParserSyntaxError):
        start = _position(lines, error.raw_line, error.raw_column)
        end = min(start + 1, lines[min(max(error.raw_line, 1), len(lines)) - 1].end)
        return Diagnostic.error("syntax", index.span(start, end),
                                f"invalid Python syntax: {libcst_message}")
    return Diagnostic.error("syntax", None, f"cannot parse the file as Python: {error}")


def _nest(found: list[FoundUnit]) -> tuple[list[FoundUnit], dict[int, list[FoundUnit]]]:
    """Split located units into top-level units and the prim_func members of ir_module classes;
    units inside a prim_func, or deeper inside an ir_module class, are dropped."""
    top: list[FoundUnit] = []
    members: dict[int, list[FoundUnit]] = {}
    open_units: list[FoundUnit] = []
    for unit in sorted(found, key=lambda u: u.decorator_start):
        while open_units and open_units[-1].end < unit.decorator_start:
            open_units.pop()
        if not open_units:
            top.append(unit)
            open_units.append(unit)
            continue
        parent = open_units[-1]
        parent_qualname = f"{parent.scope}.{parent.name}" if parent.scope else parent.name
        if parent.keyword == "class" and unit.keyword == "def" and unit.scope == parent_qualname:
            members.setdefault(id(parent), []).append(unit)
    return top, members


def _make_unit(found: FoundUnit, text: str, index: LineIndex, imports: HostImports,
               members: Sequence[Unit], recovered: bool) -> Unit:
    start = line_start(text, found.decorator_start)
    aliases = imports.aliases(found.decorator_start, found.scope)
    dialect = found.canonical.split(".", 1)[0]
    if found.keyword == "class":
        dialects = {m.dialect for m in members} or set(aliases.values())
        dialect = "tirx" if "tirx" in dialects and "tir" not in dialects else "tir"
    keywords, positional = found.arguments or _source_arguments(found.decorator)
    return Unit(
        kind=UNIT_DECORATORS[found.canonical], name=found.name,
        qualname=f"{found.scope}.{found.name}" if found.scope else found.name,
        dialect=dialect, start=start, end=found.end,
        indent=text[start:found.decorator_start], span=index.span(start, found.end),
        text=text[start:found.end], decorator=found.decorator,
        decorator_args=MappingProxyType(dict(keywords)), decorator_positional=positional,
        aliases=MappingProxyType(aliases), name_offset=found.name_offset,
        members=tuple(members), nested=found.nested, recovered=recovered)


def _fit_replacement(unit: Unit, new_text: str) -> str:
    """``new_text`` adjusted to a unit's range: one trailing line terminator dropped (the range
    excludes it), ``\\n`` turned into ``\\r\\n`` when the unit uses CRLF line endings."""
    if new_text.endswith("\n"):
        new_text = new_text[:-2] if new_text.endswith("\r\n") else new_text[:-1]
    if "\r\n" in unit.text and "\r\n" not in new_text:
        new_text = new_text.replace("\n", "\r\n")
    first = new_text.split("\n", 1)[0].rstrip("\r")
    if not first.startswith(unit.indent) or first[len(unit.indent):][:1] in ("", " ", "\t", "\f"):
        raise ValueError(f"replacement for unit {unit.qualname!r} must start with a line indented "
                         f"by exactly {unit.indent!r}")
    return new_text


class HostFile:
    """A host Python file parsed losslessly, with its TVMScript units and import bindings.

    The static counterpart of what TVM's ``tvm.script.parser.core.entry.parse`` gets from
    ``inspect.getsource``; see the module docstring. Attributes: ``path``, ``text`` (the source as
    given), ``module`` (the libcst ``Module``, ``None`` when the file does not parse), ``imports``
    (:class:`HostImports`), ``units`` (top-level units in source order; ir_module members are in
    ``Unit.members``), ``diagnostics`` (a syntax error when libcst failed) and ``line_index``.
    """

    __slots__ = ("path", "text", "module", "imports", "units", "diagnostics", "line_index",
                 "_code", "_recovered")

    def __init__(self, path: str, text: str, module: cst.Module | None, imports: HostImports,
                 units: Sequence[Unit], diagnostics: Sequence[Diagnostic],
                 line_index: LineIndex) -> None:
        self.path, self.text, self.module = path, text, module
        self.imports, self.units = imports, tuple(units)
        self.diagnostics, self.line_index = tuple(diagnostics), line_index
        self._code: str | None = None
        self._recovered = module is None

    @classmethod
    def parse(cls, text: str, path: str = "<string>") -> "HostFile":
        """Parse the Python source ``text`` (named ``path`` in spans) and locate its units.

        Never raises on bad Python: a file libcst cannot parse gets a ``"syntax"`` diagnostic and
        its units are located by the line-based fallback (``Unit.recovered``). The rare valid file
        libcst cannot regenerate byte-for-byte (a form feed inside indentation, a lone ``\\r``
        ending the file) keeps its tree but has its units located by the same scanner (not marked
        recovered). A leading BOM is kept. Nothing in the file is executed. Raises ``TypeError``
        if ``text`` is not a ``str``.
        """
        if not isinstance(text, str):
            raise TypeError(f"HostFile.parse expects str source, got {type(text).__name__}")
        index = LineIndex(text, path)
        base = 1 if text.startswith("\ufeff") else 0
        too_big = check_text(text, index)
        if too_big is not None:  # libcst's native parser would crash or take minutes
            return cls._build(path, text, None, HostImports(()), [], [too_big], index)
        try:
            module = cst.parse_module(text[base:])
        except Exception as error:  # pylint: disable=broad-except  # any parser failure
            imports, found = _locate_by_lines(text)
            return cls._build(path, text, None, imports, found,
                              [_syntax_diagnostic(text, index, error)], index)
        with deep_recursion():  # libcst's codegen recurses along operator chains
            imports, found, code = _locate_with_libcst(module, text, base)
        if code != text:
            imports, found = _locate_by_lines(text)
        host = cls._build(path, text, module, imports, found, (), index)
        host._code = code if code == text else None  # pylint: disable=protected-access
        return host

    @classmethod
    def locate(cls, text: str, path: str = "<string>",
               tree: Callable[[], ast.Module | None] | None = None) -> "HostFile":
        """The units and imports :meth:`parse` finds, located from Python's ``ast`` (``tree()``
        gives ``ast.parse(text)`` or ``None`` when the caller caches it; it is called only after
        the size limits passed) without building the lossless tree: for readers
        of the units (``parse_file``, ``tirc``) and ``tirfmt``, which replaces whole units
        (:meth:`replace_units` needs their ranges only). ``module``
        is ``None`` and :attr:`code` is the text as given. Text ``ast`` cannot take, or that the
        ``ast`` locator does not cover (BOM, ``\\r``, form feed), goes through :meth:`parse`.
        Raises ``TypeError`` if ``text`` is not a ``str``."""
        if not isinstance(text, str):
            raise TypeError(f"HostFile.locate expects str source, got {type(text).__name__}")
        index = LineIndex(text, path)
        too_big = check_text(text, index)
        if too_big is not None:
            return cls._build(path, text, None, HostImports(()), [], [too_big], index)
        located = locate_with_ast(text, tree, index)
        if located is None:
            return cls.parse(text, path)
        return cls._build(path, text, None, located[0], located[1], (), index, recovered=False)

    @classmethod
    def scan(cls, text: str, path: str = "<string>") -> "HostFile":
        """Locate units with the line-based fallback only, without libcst: what :meth:`parse` does
        for a file that is not valid Python, and a cheap scan for editors. ``module`` is ``None``,
        there are no diagnostics, units are marked ``recovered``. Raises ``TypeError`` if ``text``
        is not a ``str``."""
        if not isinstance(text, str):
            raise TypeError(f"HostFile.scan expects str source, got {type(text).__name__}")
        imports, found = _locate_by_lines(text)
        return cls._build(path, text, None, imports, found, (), LineIndex(text, path))

    @classmethod
    def _build(cls, path: str, text: str, module: cst.Module | None, imports: HostImports,
               found: list[FoundUnit], diagnostics: Sequence[Diagnostic],
               index: LineIndex, recovered: bool | None = None) -> "HostFile":
        top, members = _nest(found)
        recovered = module is None if recovered is None else recovered
        units = []
        for unit in top:
            subunits = [_make_unit(m, text, index, imports, (), recovered)
                        for m in members.get(id(unit), ())]
            units.append(_make_unit(unit, text, index, imports, subunits, recovered))
        host = cls(path, text, module, imports, units, diagnostics, index)
        host._recovered = recovered  # pylint: disable=protected-access
        return host

    @property
    def recovered(self) -> bool:
        """True when libcst could not parse the file and units come from the fallback."""
        return self._recovered

    @property
    def code(self) -> str:
        """The file regenerated from the libcst tree (``Module.code``, with a leading BOM kept):
        byte-identical to the text parsed (DESIGN.md §3.1). Where libcst cannot reproduce the
        text (it did not parse, or one of the rare lossy cases above) this is the text as given,
        so the contract holds for every input."""
        return self._code if self._code is not None else self.text

    @property
    def regenerated(self) -> bool:
        """True when :attr:`code` comes from the libcst tree (not the stored text)."""
        return self._code is not None

    def iter_units(self) -> Iterator[Unit]:
        """Every unit in source order: each top-level unit followed by its members."""
        for unit in self.units:
            yield unit
            yield from unit.members

    def find(self, name: str) -> Unit | None:
        """The first unit (members included) whose ``qualname`` or ``name`` is ``name``."""
        units = list(self.iter_units())
        return (next((u for u in units if u.qualname == name), None)
                or next((u for u in units if u.name == name), None))

    def unit_at(self, offset: int) -> Unit | None:
        """The innermost unit whose range holds character ``offset`` (for editor requests)."""
        best = None
        for unit in self.iter_units():
            if unit.start <= offset <= unit.end:
                best = unit
        return best

    def resolve(self, dotted: str, at: int | None = None, scope: str = "") -> str | None:
        """The canonical name a dotted name means in this file (``"T.prim_func"`` ->
        ``"tir.prim_func"``), as :meth:`HostImports.resolve`."""
        return self.imports.resolve(dotted, at, scope)

    def replace_units(self, replacements: Mapping[Unit, str]) -> str:
        """The file text with each unit's range replaced by its new text; every other character is
        unchanged (what ``tirfmt`` writes back).

        ``new_text`` is a full unit text at the unit's indentation (its first line starts with
        ``unit.indent``); one trailing line terminator is dropped and ``\\n`` becomes ``\\r\\n``
        in a CRLF unit. Raises ``ValueError`` if a unit does not belong to this file's text, the
        replacement is not indented like the unit, or two units overlap (an ir_module and one of
        its members).
        """
        edits = []
        for unit, new_text in replacements.items():
            if self.text[unit.start:unit.end] != unit.text:
                raise ValueError(f"unit {unit.qualname!r} does not belong to this file's text")
            edits.append((unit.start, unit.end, _fit_replacement(unit, new_text)))
        return splice(self.text, edits)

    def __repr__(self) -> str:
        names = ", ".join(u.qualname for u in self.units)
        state = " recovered" if self.recovered else ""
        return f"<HostFile {self.path!r}{state} units=[{names}]>"
