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
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Callable, Iterator, Mapping, Sequence

from ..ir.diagnostics import Diagnostic
from ..ir.span import LineIndex, Span
from .host_ast import locate_with_ast
from .host_imports import UNIT_DECORATORS, HostImports, ImportBinding
from .limits import check_text, deep_recursion
from .host_scan import FoundUnit, line_start, scan_imports, scan_lines, scan_units

if TYPE_CHECKING:
    import libcst as cst

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

def _locate_by_lines(text: str) -> tuple[HostImports, list[FoundUnit]]:
    """Imports and units found by the line-based scanner (:mod:`tirkit.lang.host_scan`)."""
    lines = scan_lines(text)
    imports = HostImports(scan_imports(text, lines))
    return imports, scan_units(text, lines, imports.resolve)


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


def _source_arguments(source: str) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]]:
    """Keyword and positional argument sources of decorator source text (recovered units)."""
    from .host_cst import source_arguments  # pylint: disable=import-outside-toplevel

    return source_arguments(source)


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
        from . import host_cst  # pylint: disable=import-outside-toplevel  # libcst, when needed

        try:
            module = host_cst.cst.parse_module(text[base:])
        except Exception as error:  # pylint: disable=broad-except  # any parser failure
            imports, found = _locate_by_lines(text)
            return cls._build(path, text, None, imports, found,
                              [host_cst.syntax_diagnostic(text, index, error)], index)
        with deep_recursion():  # libcst's codegen recurses along operator chains
            imports, found, code = host_cst.locate_with_libcst(module, text, base)
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
