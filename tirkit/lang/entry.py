"""Entry points of the front end: ``from_source``, ``parse_file`` and the decorator-mode parsers
behind ``@T.prim_func`` / ``@I.ir_module`` (mirrors ``tvm.script.from_source`` and
``tvm.script.parser.entry``)."""
from __future__ import annotations

import ast
import warnings
import os
import re
import inspect
import textwrap
from dataclasses import dataclass, field
from typing import Any, Callable, cast

from tirkit import _layers
from tirkit.ir.diagnostics import Diagnostic, DiagnosticError
from tirkit.ir.span import LineIndex

from . import ir as _I
from . import tir as _T
from .parser import ir_handlers, tir_handlers  # noqa: F401  (register handlers)
from .parser import legacy_handlers  # noqa: F401  (the legacy dialect's table)
from .parser import evaluator_ops  # noqa: F401  (register operator handlers)
from .parser.core import Parser
from .parser.evaluator import Captured, EvalError, Evaluator, NotStatic, TypeVarName
from .parser.macro import _python_env, _python_source, static_macros
from .generators import captured_names, parse_generator_unit
from .limits import BudgetExceeded, deep_recursion, time_budget
from .parser.var_table import VarTable

NAMESPACES = {"tir": _T, "tirx": _T, "ir": _I}


def _namespace(module: str) -> Any:
    if module == "relax":  # the graph-level dialect registers itself when imported
        import importlib  # pylint: disable=import-outside-toplevel

        importlib.import_module("tirkit.relax.script")
        return importlib.import_module("tirkit.relax.script.namespace")
    if module == "tirx":
        from .tirx import TirxNamespace  # pylint: disable=import-outside-toplevel

        return TirxNamespace()
    return NAMESPACES[module]


@dataclass
class ParsedUnit:
    """One TVMScript unit of a file: its name, kind, the IR (``None`` if it has errors) and all
    its diagnostics. :attr:`comments` is the unit's comment table for the printer."""

    name: str
    kind: str
    ir: Any
    diagnostics: list[Diagnostic] = field(default_factory=list)
    span: Any = None
    syntax: Any = field(default=None, repr=False, compare=False)  # (tree, comments, LineIndex)
    captures: tuple[str, ...] = ()  # names a kernel generator's unit captures from its caller

    @property
    def comments(self) -> dict[Any, Any]:
        """``{Span: Comments}``: every comment of the unit attached to the statement it
        precedes, trails or ends (:func:`tirkit.lang.comments.attach_comments`); pass it as
        ``script(unit.ir, comments=unit.comments)``. Empty without comments or IR. Computed on
        first use."""
        cached = self.__dict__.get("_comments")
        if cached is None:
            cached = {}
            if self.syntax is not None and self.ir is not None and self.syntax[1]:
                from .comments import attach_comments  # pylint: disable=import-outside-toplevel

                tree, comments, lines = self.syntax
                cached = attach_comments(tree.body[0], comments, self.ir, lines)
            self.__dict__["_comments"] = cached
        return cached


    def comments_with(self, **printer_config: Any) -> dict[Any, Any]:
        """:attr:`comments` for a print with these :func:`tirkit.printer.script` options: which
        statements print a line of their own can depend on them (tirfmt's ``written`` keeps a
        ``A = T.match_buffer(a, ...)`` line that the default print folds into the parameter,
        and with it the comment on that line). Not cached."""
        if not printer_config:
            return self.comments
        if self.syntax is None or self.ir is None or not self.syntax[1]:
            return {}
        from .comments import attach_comments  # pylint: disable=import-outside-toplevel

        tree, comments, lines = self.syntax
        return attach_comments(tree.body[0], comments, self.ir, lines, printer_config)


def module_constants(text: str, aliases: dict[str, str], tree: Any = None) -> dict[str, Any]:
    """Values of simple module-level assignments (``N = 128``, ``DT = "float32"``), evaluated in
    static mode; anything not statically known is skipped. Parsing with ``ast`` runs nothing;
    ``tree`` is ``text``'s ``ast`` module when the caller has it already."""
    env: dict[str, Any] = {alias: _namespace(mod) for alias, mod in aliases.items()}
    tree = tree if tree is not None else file_ast(text)
    if tree is None:  # reported by the host layer
        return env
    ev = Evaluator(VarTable(), env, static=True, span_of=lambda n: None)
    for stmt in tree.body:
        type_var = _type_var(stmt)
        if type_var is not None:
            env[type_var.name] = type_var
        elif isinstance(stmt, ast.Assign) and all(isinstance(t, ast.Name) for t in stmt.targets):
            try:
                value = ev.eval(stmt.value)
            except EvalError:
                value = NotStatic()
            for t in stmt.targets:
                env[cast(ast.Name, t).id] = value
        else:
            for name in _bound_names(stmt):
                env.setdefault(name, NotStatic())
    return env


def _type_var(stmt: ast.stmt) -> TypeVarName | None:
    """``n = TypeVar("n")`` (or ``typing.TypeVar``; imported or not, as TVM 0.27 prints it with
    the import commented out): a symbolic shape var of the file's units."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name) and isinstance(stmt.value, ast.Call)):
        return None
    fn, args = stmt.value.func, stmt.value.args
    named = (isinstance(fn, ast.Name) and fn.id == "TypeVar") or (
        isinstance(fn, ast.Attribute) and fn.attr == "TypeVar"
        and isinstance(fn.value, ast.Name) and fn.value.id == "typing")
    if not named or len(args) != 1 or stmt.value.keywords or not isinstance(args[0], ast.Constant) \
            or args[0].value != stmt.targets[0].id:
        return None
    return TypeVarName(stmt.targets[0].id)


def _fresh_namespaces(env: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``env`` whose stateful namespaces (tirx's ``s_tir`` flag) are new objects."""
    out = dict(env)
    for name, value in env.items():
        if type(value).__name__ == "TirxNamespace":
            out[name] = type(value)()
    return out


def _bound_names(stmt: ast.stmt) -> list[str]:
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        return [(a.asname or a.name).split(".")[0] for a in stmt.names]
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [stmt.name]
    return []


def _parse_tree(unit_text: str, line_index: LineIndex, base_offset: int,
                syntax: list | None = None) -> tuple[Any, list]:
    from .grammar import parse_unit  # pylint: disable=import-outside-toplevel

    result = parse_unit(unit_text, line_index=line_index, base_offset=base_offset,
                        source_name=line_index.source_name)
    if syntax is not None:
        syntax[:] = [result.tree, result.comments, line_index]
    return result.tree, list(result.diagnostics)


def parse_unit_text(unit_text: str, env: dict[str, Any], *, static: bool,
                    line_index: LineIndex, base_offset: int, dialect: str = "tir",
                    syntax: list | None = None,
                    on_parser: Callable[[Parser, Any], None] | None = None
                    ) -> tuple[Any, list[Diagnostic]]:
    """Parse one unit's text to IR with the given evaluation environment: syntax, parse,
    ScriptComplete, well-formedness. A ``syntax`` list receives ``[tree, comments, line_index]``
    (for the unit's comment table); ``on_parser(parser, tree)`` runs before parsing (the language
    server records name bindings through it)."""
    tree, diags = _parse_tree(unit_text, line_index, base_offset, syntax)
    if tree is None or not tree.body:
        return None, diags
    parser = Parser(env, static=static, line_index=line_index, dialect=dialect)
    if on_parser is not None:
        on_parser(parser, tree)
    ir = parser.parse(tree)
    diags = diags + s_tir_fixes(parser.diagnostics, unit_text, line_index, base_offset)
    if diags:
        ir = None if any(d.severity == 1 for d in diags) else ir
    if ir is not None:
        from .complete import script_complete  # pylint: disable=import-outside-toplevel

        ir = script_complete(ir)
        problem = _well_formed_problem(ir) if parser.unit_check_well_formed else None
        if problem is not None:
            diags.append(Diagnostic.error("well-formed", getattr(ir, "span", None), problem))
            ir = None
    return ir, diags


def _well_formed_problem(ir: Any) -> str | None:
    """TVM's well-formedness check on freshly parsed IR (every var defined before use, block
    iter vars used only inside their block...); the message, or ``None``."""
    from tirkit.tir.analysis import verify_well_formed  # pylint: disable=import-outside-toplevel

    try:
        verify_well_formed(ir)
    except ValueError as err:
        return str(err)
    return None


def parse_file(source: "str | os.PathLike[str]", path: str = "<string>", *,
               unit_budget: float | None = None, host: list | None = None) -> list[ParsedUnit]:
    """Parse every TVMScript unit of a Python file without running it (static mode).

    ``source`` is the file's text, or a path (an ``os.PathLike``, or a ``str`` naming an
    existing ``.py`` file with no newline in it), which is then read as UTF-8. Returns one
    :class:`ParsedUnit` per unit, each with its IR or its diagnostics; a unit with errors does
    not stop the others. Host-level syntax errors are reported on a pseudo-unit named
    ``"<file>"``. With ``unit_budget`` (seconds of CPU time), a unit whose analysis takes longer
    is stopped and gets a ``budget`` error diagnostic, and the next unit starts with a fresh
    budget (one slow unit cannot stall the others). A ``host`` list receives the
    :class:`~tirkit.lang.host.HostFile` the units were located in (``tirfmt`` splices its units
    without locating them a second time). Mirrors no single TVM function (TVM parses one object
    via ``from_source``).

    Raises:
        OSError: when a given path cannot be read.
    """
    if isinstance(source, os.PathLike) or (isinstance(source, str) and "\n" not in source
                                           and source.endswith(".py")
                                           and os.path.isfile(source)):
        path = os.fspath(source)
        with open(path, encoding="utf-8") as fh:
            source = fh.read()

    with deep_recursion():  # bounded: the text limits cap nesting and statement length
        return _parse_file(source, path, unit_budget, host)


def _over_budget(unit: Any, err: BudgetExceeded) -> ParsedUnit:
    return ParsedUnit(unit.name, unit.kind, None, [Diagnostic.error(
        "budget", unit.span, f"analysis of `{unit.name}` took more than {err.seconds:g} s of "
        "CPU time and was stopped; the other units are analysed")], unit.span)


def _parse_file(source: str, path: str, unit_budget: float | None = None,
                hosts: list | None = None) -> list[ParsedUnit]:
    from .host import HostFile  # pylint: disable=import-outside-toplevel

    trees: list = []  # the file's ``ast`` tree, parsed once (see _cached_ast)
    host = HostFile.locate(source, path, lambda: _cached_ast(source, trees))
    if hosts is not None:
        hosts.append(host)
    line_index = host.line_index  # LineIndex(source, path), built once
    if any(d.code == "limit" for d in host.diagnostics):
        return [ParsedUnit("<file>", "file", None, list(host.diagnostics))]
    out: list[ParsedUnit] = []
    # a unit reports its own syntax errors (more precisely, and all of them)
    host_diags = [d for d in host.diagnostics if not _inside_unit(d, host.units, line_index)]
    host_diags += decorator_typos(host, line_index) + missing_imports(host, line_index)
    if host_diags:
        out.append(ParsedUnit("<file>", "file", None, host_diags))
    constants: dict[tuple, dict[str, Any]] = {}
    for unit in host.units:
        aliases = dict(unit.aliases) or {"T": "tir", "I": "ir"}
        key = tuple(sorted(aliases.items()))
        if key not in constants:
            constants[key] = module_constants(source, aliases, _cached_ast(source, trees))
            static_macros(source, line_index, aliases, constants[key],
                          _cached_ast(source, trees))
        env = _fresh_namespaces(constants[key])
        syntax: list = []

        def parse(env: dict[str, Any], unit: Any = unit, syntax: list = syntax) -> tuple:
            return parse_unit_text(unit.text, env, static=True, line_index=line_index,
                                   base_offset=unit.start, dialect=unit.dialect, syntax=syntax)
        try:
            with time_budget(unit_budget):
                ir, diags, captured = _parse_one(source, unit, env, trees, parse)
        except BudgetExceeded as err:
            out.append(_over_budget(unit, err))
            continue
        out.append(ParsedUnit(unit.name, unit.kind, ir, diags, unit.span,
                              tuple(syntax) if syntax and syntax[0] is not None else None,
                              tuple(captured or ())))
    if not host.units or "ty." in source:
        out.extend(parse_legacy_units(source, line_index, _cached_ast(source, trees)))
    return out


def _parse_one(source: str, unit: Any, env: dict[str, Any], trees: list,
               parse: Callable[..., tuple]) -> tuple[Any, list, dict | None]:
    captured = _captured(source, unit, env, trees) if unit.nested else None
    explicit = explicit_captures(unit)
    if explicit:  # host values the decorator captures: a note where used, never an error
        captured = {**(captured or {}), **{n: Captured(n, host=True) for n in explicit}}
    ir, diags = parse(env) if captured is None else parse_generator_unit(parse, env, captured)
    return ir, diags, captured


def file_ast(text: str) -> ast.Module | None:
    """``ast.parse(text)``, or ``None`` for text Python cannot parse (the host layer reports
    it). Runs nothing; Python's ``SyntaxWarning`` messages (``1if x``, invalid escapes) are not printed.
    """
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SyntaxWarning)
            return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _cached_ast(source: str, trees: list) -> ast.Module | None:
    """The file's ``ast`` module, parsed once per :func:`parse_file` (module constants, static
    macros, generator captures and legacy units all read it)."""
    if not trees:
        trees.append(file_ast(source))
    return trees[0]


def parse_legacy_units(source: str, line_index: LineIndex,
                       tree: Any = None) -> list[ParsedUnit]:
    """The units of the legacy hybrid dialect of seed 000 in a file (no decorator: ``class
    Module:`` / ``def f(A: ty.handle)``), each parsed with the ``legacy`` dispatch table; see
    :mod:`tirkit.lang.legacy`."""
    from .legacy import find_legacy_units, legacy_env  # pylint: disable=import-outside-toplevel

    out = []
    found = find_legacy_units(source)
    base_env = module_constants(source, {}, tree) if found else {}
    for unit in found:
        syntax: list = []
        ir, diags = parse_unit_text(source[unit.start:unit.end], {**base_env, **legacy_env()},
                                    static=True, line_index=line_index, base_offset=unit.start,
                                    dialect="legacy", syntax=syntax)
        out.append(ParsedUnit(unit.name, unit.kind, ir, diags,
                              line_index.span(unit.start, unit.end),
                              tuple(syntax) if syntax and syntax[0] is not None else None))
    return out


def _captured(source: str, unit: Any, env: dict[str, Any], trees: list) -> dict | None:
    """What a prim_func nested in a Python function captures (see :mod:`.generators`)."""
    tree = _cached_ast(source, trees)
    if tree is None or unit.span is None:
        return None
    return captured_names(tree, unit.name, unit.span.line, env)


def _inside_unit(diag: Diagnostic, units: Any, line_index: LineIndex) -> bool:
    if diag.span is None:
        return False
    start, _ = line_index.char_range(diag.span)
    return any(u.start <= start <= u.end for u in units)


_DECORATOR = re.compile(r"^[ \t]*@(([A-Za-z_]\w*)\.([A-Za-z_]\w*))", re.M)
_UNIT_DECORATORS = ("prim_func", "ir_module")


def decorator_typos(host: Any, line_index: LineIndex) -> list[Diagnostic]:
    """``@T.prim_fun``-style decorators: a T/I name that is close to ``prim_func``/``ir_module``
    but is not a TVMScript name; the function is then no unit, so say why."""
    import difflib  # pylint: disable=import-outside-toplevel

    out = []
    for m in _DECORATOR.finditer(host.text):
        alias, attr = m.group(2), m.group(3)
        canonical = host.imports.resolve(f"{alias}.{attr}", m.start())
        if canonical is None or attr in _UNIT_DECORATORS or \
                canonical.split(".")[0] not in NAMESPACES or hasattr(_T, attr) or hasattr(_I, attr):
            continue
        close = difflib.get_close_matches(attr, _UNIT_DECORATORS, n=1)
        if close:
            out.append(Diagnostic.error(
                "unknown-name", line_index.span(m.start(1), m.end(1)),
                f"`{m.group(1)}` is not a TVMScript decorator; did you mean `{alias}.{close[0]}`?"))
    return out


_IMPORT_LINES = {"tir": "from tvm.script import tir as {alias}\n",
                 "ir": "from tvm.script import ir as {alias}\n"}


def missing_imports(host: Any, line_index: LineIndex) -> list[Diagnostic]:
    """``@T.prim_func`` / ``@I.ir_module`` where the file never imports ``T`` / ``I``: the
    function is then no unit, so say so, with a quick fix adding the import at the top."""
    from tirkit.ir.diagnostics import Fix  # pylint: disable=import-outside-toplevel

    out, seen = [], set()
    for m in _DECORATOR.finditer(host.text):
        alias, attr = m.group(2), m.group(3)
        if attr not in _UNIT_DECORATORS or alias in seen or host.imports.lookup(alias):
            continue
        seen.add(alias)
        line = _IMPORT_LINES["tir" if attr == "prim_func" else "ir"].format(alias=alias)
        fix = Fix(f"Add `{line.strip()}`", line_index.span(0, 0), line)
        out.append(Diagnostic.error(
            "missing-import", line_index.span(m.start(2), m.end(2)),
            f"`{alias}` is not imported: add `{line.strip()}`", fixes=[fix]))
    return out


def s_tir_fixes(diags: list[Diagnostic], unit_text: str, line_index: LineIndex,
                base_offset: int) -> list[Diagnostic]:
    """Give "`T.sblock` needs `@T.prim_func(s_tir=True)`" a quick fix that adds the argument."""
    from tirkit.ir.diagnostics import Fix  # pylint: disable=import-outside-toplevel

    m = re.search(r"@(\w+\.prim_func)(\(([^)]*)\))?", unit_text)
    if m is None:
        return diags
    args = m.group(3)
    new = f"{m.group(1)}(s_tir=True)" if args is None or not args.strip() else \
        f"{m.group(1)}({args.strip()}, s_tir=True)"
    span = line_index.span(base_offset + m.start(1), base_offset + m.end())
    fix = Fix("Add `s_tir=True` to the decorator", span, new)
    return [d.__class__(d.severity, d.code, d.span, d.message, d.notes, d.fixes + (fix,))
            if "s_tir=True" in d.message and not d.fixes else d for d in diags]


_IMPORTS = re.compile(r"^\s*(from|import)\s+(tvm|tirkit)\b", re.M)
_DEFAULT_IMPORTS = "from tvm.script import tir as T\nfrom tvm.script import ir as I\n"


def from_source(source: str, path: str = "<string>") -> Any:
    """Parse TVMScript text to its IR (mirrors ``tvm.script.from_source``): a ``PrimFunc`` or
    ``IRModule`` for a single unit, an ``IRModule`` of the functions when there are several.

    Text without import lines (as printed, where they are comments) reads ``T`` and ``I`` as
    ``tvm.script.tir``/``tvm.script.ir``, as TVM's ``from_source`` does.

    Raises:
        DiagnosticError: carrying every diagnostic when the text has errors or no unit.
    """
    if not _IMPORTS.search(source):
        # appended, so every offset and line of ``source`` stays where it is
        source = source + "\n" + _DEFAULT_IMPORTS
        if "@R.function" in source:
            source += "from tvm.script import relax as R\n"
    units = parse_file(source, path)
    diags = [d for u in units for d in u.diagnostics]
    if any(d.severity == 1 for d in diags):
        raise DiagnosticError(diags, source, path)
    irs = [u for u in units if u.ir is not None]
    if not irs:
        raise DiagnosticError([Diagnostic.error("no-unit", None, "no @T.prim_func or "
                                                "@I.ir_module found")], source, path)
    if len(irs) == 1:
        return irs[0].ir
    from tirkit.ir import IRModule  # pylint: disable=import-outside-toplevel

    return IRModule({u.name: u.ir for u in irs})


def _parse_python(obj: Any, env: dict[str, Any]) -> Any:
    text, li, start = _python_source(obj)
    ir, diags = parse_unit_text(text, env, static=False, line_index=li, base_offset=start)
    if ir is None or any(d.severity == 1 for d in diags):
        raise DiagnosticError(diags, li.text, li.source_name)
    return ir


def parse_python_function(fn: Any, private: bool = False, capture: Any = None) -> Any:
    """Decorator mode for ``@T.prim_func``: parse ``fn``'s source with its globals, closure and
    the explicit ``capture`` (a list of named objects or a ``{name: value}`` dict).

    Raises:
        TypeError: a ``capture`` item has no ``__name__``.
    """
    del private
    return _parse_python(fn, {**_python_env(fn), **_capture_env(capture)})


def _capture_env(capture: Any) -> dict[str, Any]:
    if capture is None:
        return {}
    if isinstance(capture, dict):
        return dict(capture)
    out = {}
    for item in capture:
        name = getattr(item, "__name__", None)
        if not isinstance(name, str):
            raise TypeError(f"T.prim_func(capture=[...]): {item!r} has no __name__; pass a dict "
                            "{name: value} to capture it")
        out[name] = item
    return out


def explicit_captures(unit: Any) -> list[str]:
    """The names in a host unit's ``@T.prim_func(capture=[a, b])`` decorator (static mode:
    their values are never known, see :func:`parse_file`)."""
    source = unit.decorator_args.get("capture", "").strip()
    if source[:1] not in ("[", "("):
        return []
    return [n.strip() for n in source[1:-1].split(",") if n.strip().isidentifier()]


def parse_python_class(cls: Any) -> Any:
    """Decorator mode for ``@I.ir_module``: parse ``cls``'s source with its module's globals."""
    module = inspect.getmodule(cls)
    env = dict(vars(module)) if module is not None else {}
    frame = inspect.currentframe()
    caller = frame.f_back.f_back.f_back if frame and frame.f_back and frame.f_back.f_back else None
    if caller is not None:
        env.update(caller.f_locals)
    return _parse_python(cls, env)


# T.prim_func and I.ir_module (tirkit.lang.tir / tirkit.lang.ir, which this module imports for the
# namespaces) parse in decorator mode through these (see tirkit._layers)
_layers.provide("parse_python_function", parse_python_function)
_layers.provide("parse_python_class", parse_python_class)

del textwrap
