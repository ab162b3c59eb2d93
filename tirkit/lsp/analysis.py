"""Analysis of a Python file's TVMScript units for the language server, cached per unit text
(no TVM counterpart).

A unit is parsed in its own coordinates: its text alone, line 1 being the unit's first line
(units start at column 0, so columns are file columns). The result, a :class:`UnitAnalysis`, is
cached under the unit's text, dialect, aliases and the module constants it can see; an edit
re-analyses only the unit it touches, and a unit that merely moved (lines inserted above it) is
reused and shifted by :class:`PlacedUnit`. Files that do not mention TVMScript cost one regex.

Nothing is executed (DESIGN.md §3.5): units are located with the line-based host scanner,
module constants come from the static evaluator.
"""
from __future__ import annotations

import ast
import re
import threading
import warnings
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor, TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from typing import Any, TypeGuard, overload

from tirkit.ir.diagnostics import Diagnostic, Fix, Note
from tirkit.ir.span import LineIndex, Span
from tirkit.lang import entry
from tirkit.lang.host import HostFile, Unit
from tirkit.lang.limits import BudgetExceeded, time_budget
from tirkit.lang.parser.macro import static_macros

from .irindex import IRIndex, build_index
from .symbols import SymbolIndex, record

__all__ = ["UnitAnalysis", "PlacedUnit", "FileAnalysis", "Analyzer", "analyze_unit",
           "mentions_tvmscript", "over_budget"]

_MENTIONS = re.compile(r"prim_func|ir_module")


def mentions_tvmscript(text: str) -> bool:
    """Whether ``text`` may hold a TVMScript unit (cheap pre-check: a unit decorator's name)."""
    return _MENTIONS.search(text) is not None


@dataclass
class UnitAnalysis:
    """One unit analysed in unit coordinates: IR (``None`` on errors), diagnostics, syntax tree
    and symbol index. Shared between files/versions with the same unit text."""

    ir: Any
    diagnostics: list[Diagnostic]
    tree: Any
    symbols: SymbolIndex
    comments: tuple = ()
    text: str = ""
    complete: bool = True  # False: a stand-in for an analysis still running (over budget)
    expansions: list = field(default_factory=list)  # [(call span, macro name, statements)]
    _index: Any = field(default=None, repr=False)

    def index(self) -> IRIndex:
        """The :class:`~tirkit.lsp.irindex.IRIndex` of the IR (built on first use); nodes that
        came from a macro body (spans in the macro's file coordinates) are left out."""
        if self._index is None:
            self._index = build_index(self.ir, self.text or None)
            self._index.drop(lambda span: is_macro_span(span))
        return self._index


MACRO_SOURCE = " (macro)"  # suffix of the source name of spans inside module-level macros


def is_macro_span(span: Span | None) -> TypeGuard[Span]:
    """Whether ``span`` points into a module-level ``@T.macro`` (file coordinates)."""
    return span is not None and str(span.source_name).endswith(MACRO_SOURCE)


class RecordingMacro:  # pylint: disable=too-few-public-methods
    """A static ``@T.macro`` that also records what each call expanded to: the call's span,
    the macro's name and the statements the call added to the enclosing frame."""

    def __init__(self, macro: Any, out: list) -> None:
        self.macro, self.out = macro, out
        self.__name__ = getattr(macro, "__name__", "macro")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        from tirkit.lang.ir_builder.base import IRBuilder  # pylint: disable=C0415

        builder = IRBuilder.current() if IRBuilder.is_in_scope() else None
        frame = builder.last_frame() if builder is not None else None
        stmts = getattr(frame, "stmts", None)
        before, span = (len(stmts) if stmts is not None else 0), \
            (builder.current_span if builder is not None else None)
        value = self.macro(*args, **kwargs)
        if stmts is not None and span is not None:
            self.out.append((span, self.__name__, list(stmts[before:])))
        return value


def _recording(env: dict[str, Any], out: list) -> dict[str, Any]:
    return {k: RecordingMacro(v, out) if type(v).__name__ == "Macro" else v
            for k, v in env.items()}


def analyze_unit(text: str, env: dict[str, Any], dialect: str = "tir",
                 path: str = "<string>", time_limit: float | None = None) -> UnitAnalysis:
    """Parse one unit's text (static mode) through :func:`tirkit.lang.entry.parse_unit_text`
    (syntax, parse, ScriptComplete, well-formedness), recording name bindings and uses. After
    ``time_limit`` seconds the analysis stops with a ``budget`` error on the unit's first line."""
    li = LineIndex(text, path)
    syntax: list = []
    recorders: list = []
    expansions: list = []
    env = _recording(env, expansions)
    try:
        with time_budget(time_limit):
            ir, diags = entry.parse_unit_text(
                text, env, static=True, line_index=li, base_offset=0, dialect=dialect,
                syntax=syntax,
                on_parser=lambda parser, tree: recorders.append(record(parser, tree)))
    except BudgetExceeded as err:
        first = text.split("\n", 1)[0]
        ir, diags, recorders = None, [Diagnostic.error(
            "budget", Span(path, 1, 0, 1, len(first)),
            f"analysis took more than {err.seconds:g} s of CPU time and was stopped (the language "
            "server's unitTimeLimit)")], []
    except Exception as err:  # pylint: disable=broad-except  # bad input never crashes
        tree = syntax[0] if syntax else None
        span = tree.body[0].span if tree is not None and tree.body else None
        ir, diags = None, [Diagnostic.error("internal", span,
                                            f"internal error while parsing: {err!r}")]
    tree, comments = (syntax[0], syntax[1]) if syntax else (None, ())
    index = recorders[0].index() if recorders else SymbolIndex()
    return UnitAnalysis(ir, diags, tree, index, comments, text, expansions=expansions)


@overload
def shift_span(span: Span, lines: int, offset: int = 0) -> Span: ...
@overload
def shift_span(span: None, lines: int, offset: int = 0) -> None: ...
def shift_span(span: Span | None, lines: int, offset: int = 0) -> Span | None:
    """``span`` moved down by ``lines`` lines (and its byte offsets by ``offset``); a span inside
    a module-level macro is already in file coordinates (only its source name is restored)."""
    if is_macro_span(span):
        return Span(str(span.source_name)[:-len(MACRO_SOURCE)], span.line, span.column,
                    span.end_line, span.end_column, span.start_offset, span.end_offset)
    if span is None or (lines == 0 and offset == 0):
        return span
    return Span(span.source_name, span.line + lines, span.column, span.end_line + lines,
                span.end_column, span.start_offset + offset if span.start_offset >= 0 else -1,
                span.end_offset + offset if span.end_offset >= 0 else -1)


def shift_diagnostic(diag: Diagnostic, lines: int, offset: int = 0) -> Diagnostic:
    """``diag`` with every span (its own, its notes', its fixes') moved by ``lines``."""
    if lines == 0 and offset == 0:
        return diag
    notes = tuple(Note(n.message, shift_span(n.span, lines, offset)) for n in diag.notes)
    fixes = tuple(Fix(f.title, shift_span(f.span, lines, offset), f.replacement)
                  for f in diag.fixes)
    return Diagnostic(diag.severity, diag.code, shift_span(diag.span, lines, offset),
                      diag.message, notes, fixes)


@dataclass
class PlacedUnit:
    """A unit of one document version with its (possibly shared) analysis; ``line_delta``
    converts unit lines to file lines (``file_line = unit_line + line_delta``)."""

    unit: Unit
    analysis: UnitAnalysis
    line_delta: int

    def contains(self, line: int) -> bool:
        """Whether 1-based file ``line`` is inside this unit."""
        return self.unit.span.line <= line <= self.unit.span.end_line

    def to_unit(self, line: int, column: int) -> tuple[int, int]:
        """Unit coordinates of file ``(line, column)``."""
        return line - self.line_delta, column

    @overload
    def to_file(self, span: Span) -> Span: ...
    @overload
    def to_file(self, span: None) -> None: ...
    def to_file(self, span: Span | None) -> Span | None:
        """File coordinates of a unit-coordinate span."""
        return shift_span(span, self.line_delta)

    def diagnostics(self) -> list[Diagnostic]:
        """The unit's diagnostics in file coordinates."""
        return [shift_diagnostic(d, self.line_delta) for d in self.analysis.diagnostics]


@dataclass
class FileAnalysis:
    """Everything known about one document version: its units and file-level diagnostics."""

    text: str
    path: str
    units: list[PlacedUnit] = field(default_factory=list)
    file_diagnostics: list[Diagnostic] = field(default_factory=list)
    host: Any = None

    @property
    def complete(self) -> bool:
        """Whether every unit's analysis finished (none is an over-budget stand-in)."""
        return all(u.analysis.complete for u in self.units)

    def diagnostics(self) -> list[Diagnostic]:
        """All diagnostics of the file, in file coordinates."""
        return self.file_diagnostics + [d for u in self.units for d in u.diagnostics()]

    def unit_at(self, line: int) -> PlacedUnit | None:
        """The innermost unit containing 1-based file ``line``."""
        inside = [u for u in self.units if u.contains(line)]
        return max(inside, key=lambda u: u.unit.start) if inside else None


def _outside_text(text: str, units: list[Unit]) -> str:
    """``text`` with each unit replaced by ``pass`` lines of the same count (so that module-level
    statements keep their lines and the file stays valid Python)."""
    pieces, pos = [], 0
    for u in sorted(units, key=lambda u: u.start):
        pieces.append(text[pos:u.start])
        pieces.append(u.indent + "pass" + "\n" * u.text.count("\n"))
        pos = u.end
    pieces.append(text[pos:])
    return "".join(pieces)


def _python_syntax(outside: str, path: str) -> list[Diagnostic]:
    """CPython's syntax error of the text outside the units, if any (``ast`` runs nothing)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(outside)
    except SyntaxError as err:
        li = LineIndex(outside, path)
        line = min(max(err.lineno or 1, 1), len(outside.split("\n")))
        col = min(max((err.offset or 1) - 1, 0), len(li.line_text(line)))
        end = col + 1 if col < len(li.line_text(line)) else col
        span = Span(path, line, col, line, end)
        return [Diagnostic.error("syntax", span, f"invalid Python syntax: {err.msg}")]
    except (ValueError, RecursionError, MemoryError) as err:
        return [Diagnostic.error("syntax", None, f"cannot parse the file as Python: {err}")]
    return []


def _env_key(env: dict[str, Any]) -> tuple:
    """A hashable, stable summary of an evaluation environment (namespaces by type name)."""
    return tuple(sorted((k, (v.text, v.base_offset) if type(v).__name__ == "Macro" else
                         type(v).__name__ if callable(v) or hasattr(v, "__dict__") and
                         type(v).__module__.startswith("tirkit.lang") else repr(v))
                        for k, v in env.items()))


def over_budget(unit: Unit, budget: float, path: str) -> UnitAnalysis:
    """Stand-in analysis of a unit whose analysis ran past ``budget`` seconds: a warning on its
    first line and no IR (the analysis goes on in the background and replaces this when done)."""
    first = unit.text.split("\n", 1)[0]
    span = Span(path, 1, 0, 1, len(first))
    diag = Diagnostic.warning("analysis-budget", span,
                              f"analysis of `{unit.name}` took longer than {budget:g} s; "
                              "its results will appear when it finishes")
    return UnitAnalysis(None, [diag], None, SymbolIndex(), (), unit.text, complete=False)


class Analyzer:
    """Analyses documents, caching :class:`UnitAnalysis` objects by unit key (LRU, bounded) and
    module constants by the text outside the units. Thread-safe.

    With a ``budget`` (seconds), each unit is analysed on a worker thread and a unit that takes
    longer gets :func:`over_budget`'s stand-in, so one slow unit cannot stall the others (nor the
    request); its analysis finishes in the background and is cached for the next request. With a
    ``time_limit`` (seconds), that background analysis is stopped after so long with a
    ``budget`` error, so a pathological unit does not keep a core busy."""

    def __init__(self, max_units: int = 512, budget: float | None = None,
                 time_limit: float | None = None) -> None:
        self.max_units = max_units
        self.budget = budget
        self.time_limit = time_limit  # seconds after which a unit's analysis is stopped
        self._units: OrderedDict[tuple, UnitAnalysis] = OrderedDict()
        self._outside: OrderedDict[str, tuple[list[Diagnostic], dict]] = OrderedDict()
        self._pending: dict[tuple, Future] = {}
        self._pool: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()
        self.misses = 0  # unit analyses actually run (for tests and benchmarks)

    def analyze(self, text: str, path: str = "<string>") -> FileAnalysis:
        """Analyse ``text`` (never raises on bad input)."""
        if not mentions_tvmscript(text):
            return FileAnalysis(text, path)
        host = HostFile.scan(text, path)
        if not host.units:  # perhaps only because T/I is not imported: say so, with a fix
            missing = entry.missing_imports(host, LineIndex(text, path))
            return FileAnalysis(text, path, file_diagnostics=missing, host=host)
        li = LineIndex(text, path)
        outside = _outside_text(text, list(host.units))
        syntax, constants = self._outside_info(outside, path)
        file_diags = syntax + entry.decorator_typos(host, li)
        placed = []
        for unit in host.units:
            aliases = dict(unit.aliases) or {"T": "tir", "I": "ir"}
            key_aliases = tuple(sorted(aliases.items()))
            if key_aliases not in constants:
                constants[key_aliases] = env = entry.module_constants(outside, aliases)
                static_macros(outside, LineIndex(outside, path + MACRO_SOURCE), aliases, env)
            env = constants[key_aliases]
            analysis = self._unit(unit, env, key_aliases, path)
            placed.append(PlacedUnit(unit, analysis, unit.span.line - 1))
        return FileAnalysis(text, path, placed, file_diags, host)

    def _outside_info(self, outside: str, path: str) -> tuple[list[Diagnostic], dict]:
        with self._lock:
            hit = self._outside.get(outside)
            if hit is not None:
                self._outside.move_to_end(outside)
                return hit
        value: tuple[Any, dict[Any, Any]] = (_python_syntax(outside, path), {})
        with self._lock:
            self._outside[outside] = value
            while len(self._outside) > 8:
                self._outside.popitem(last=False)
        return value

    def _unit(self, unit: Unit, env: dict, aliases: tuple, path: str) -> UnitAnalysis:
        key = (unit.text, unit.dialect, aliases, _env_key(env), path)
        with self._lock:
            hit = self._units.get(key)
            if hit is not None:
                self._units.move_to_end(key)
                return hit
        if self.budget is None:
            return self._run(key, unit, env, path)
        with self._lock:
            future = self._pending.get(key)
            if future is None:
                if self._pool is None:
                    self._pool = ThreadPoolExecutor(4, thread_name_prefix="tirls-unit")
                future = self._pool.submit(self._run, key, unit, env, path)
                self._pending[key] = future
                future.add_done_callback(lambda _: self._pending.pop(key, None))
        try:
            return future.result(timeout=self.budget)
        except FutureTimeout:
            return over_budget(unit, self.budget, path)

    def _run(self, key: tuple, unit: Unit, env: dict, path: str) -> UnitAnalysis:
        analysis = analyze_unit(unit.text, entry._fresh_namespaces(env),  # pylint: disable=protected-access
                                unit.dialect, path, self.time_limit)
        with self._lock:
            self.misses += 1
            self._units[key] = analysis
            while len(self._units) > self.max_units:
                self._units.popitem(last=False)
        return analysis
