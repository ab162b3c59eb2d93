"""``@T.macro``: a function whose body is TVMScript statements, spliced into a prim_func where
it is called (mirrors ``tvm.script.parser.tir.entry.macro`` / ``ScriptMacro``).

    @T.macro
    def add_one(A, i):
        A[i] = A[i] + T.float32(1)

    @T.prim_func
    def f(A: T.Buffer((8,), "float32")):
        for i in range(8):
            add_one(A, i)

A *hygienic* macro (the default) resolves the names of its body where it was defined: its
parameters, then the definition site's globals (module constants in static mode); a
non-hygienic one (``@T.macro(hygienic=False)``) sees the call site's names too. Calls are
statements (the macro's statements go where the call stands); a macro with a ``return``
gives that value to the caller's expression.

Static tools never run the macro: the file's module-level ``@T.macro`` functions are found by
:func:`static_macros` and parsed with the TVMScript grammar when first called. In decorator mode
``T.macro`` reads the function's source and captures its globals and closure.

An error in the body is reported at the macro's source with a note at the call site.
"""
from __future__ import annotations

import ast
import inspect
from contextlib import contextmanager
from typing import Any, Callable, Iterator

from tirkit.ir.diagnostics import Diagnostic, Note
from tirkit.ir.span import LineIndex

__all__ = ["Macro", "macro", "static_macros", "ACTIVE"]

ACTIVE: list[Any] = []  # the parsers now parsing (innermost last); a macro call uses the last


class _Return(Exception):
    def __init__(self, value: Any) -> None:
        super().__init__()
        self.value = value


class Macro:
    """A parsed-at-use TVMScript macro (``ScriptMacro``).

    Args:
        name: the function's name.
        text: the ``def``'s source text (with its decorators), starting at column 0 of a line.
        line_index: the LineIndex of the file holding it; ``base_offset`` the text's offset.
        env: the definition site's names (globals; closure values).
        hygienic: whether names resolve at the definition (True) or the call site too.
    """

    def __init__(self, name: str, text: str, line_index: LineIndex, base_offset: int,
                 env: dict[str, Any], hygienic: bool = True) -> None:
        self.__name__ = name
        self.text, self.line_index, self.base_offset = text, line_index, base_offset
        self.env, self.hygienic = env, hygienic
        self._tree: Any = None

    def __repr__(self) -> str:
        return f"<T.macro {self.__name__}>"

    def definition(self) -> Any:
        """The macro's FunctionDef syntax node (parsed on first use).

        Raises:
            ValueError: when its source does not parse.
        """
        if self._tree is None:
            from ..grammar import parse_unit  # pylint: disable=import-outside-toplevel

            result = parse_unit(self.text, line_index=self.line_index,
                                base_offset=self.base_offset,
                                source_name=self.line_index.source_name)
            if result.tree is None or not result.tree.body or any(
                    d.severity == 1 for d in result.diagnostics):
                raise ValueError(f"macro {self.__name__!r} does not parse")
            self._tree = result.tree.body[0]
        return self._tree

    def _bind_args(self, parser: Any, node: Any, args: tuple, kwargs: dict) -> dict[str, Any]:
        spec = node.args
        params = [a.arg for a in list(spec.posonlyargs) + list(spec.args)]
        defaults = list(spec.defaults)
        bound: dict[str, Any] = {}
        if len(args) > len(params):
            raise TypeError(f"macro {self.__name__}() takes {len(params)} positional "
                            f"argument(s) but {len(args)} were given")
        bound.update(zip(params, args))
        for key, value in kwargs.items():
            if key not in params or key in bound:
                raise TypeError(f"macro {self.__name__}() got an unexpected or repeated "
                                f"argument {key!r}")
            bound[key] = value
        first_default = len(params) - len(defaults)
        for k, pname in enumerate(params):
            if pname not in bound:
                if k < first_default:
                    raise TypeError(f"macro {self.__name__}() missing argument {pname!r}")
                bound[pname] = parser.eval_expr(defaults[k - first_default])
        return bound

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if not ACTIVE:
            raise RuntimeError(f"macro {self.__name__!r} can only be called inside a "
                               "@T.prim_func")
        parser = ACTIVE[-1]
        node = self.definition()
        bound = self._bind_args(parser, node, args, kwargs)
        call_span = parser.builder.current_span
        before = len(parser.diagnostics)
        try:
            with _scope(parser, self, bound):
                parser.visit_body(_body(node))
        except _Return as ret:
            return ret.value
        finally:
            _note_call_site(parser, before, self.__name__, call_span)
        return None


def _body(node: Any) -> list[Any]:
    body = list(node.body)
    first = body[0] if body else None
    value: Any = getattr(first, "value", None)
    if type(first).__name__ == "Expr" and type(value).__name__ == "Constant" \
            and isinstance(value.value, str):
        body = body[1:]  # the docstring
    return body


@contextmanager
def _scope(parser: Any, mac: Macro, bound: dict[str, Any]) -> Iterator[None]:
    """Names for the macro's body: hygienic = its parameters over the definition env only;
    otherwise the call site's table with the parameters on top."""
    from .var_table import VarTable  # pylint: disable=import-outside-toplevel

    ev = parser.evaluator
    saved = (parser.table, ev.table, ev.env)
    if mac.hygienic:
        from ..ir_builder.tir_stmts import range_  # pylint: disable=import-outside-toplevel

        table = VarTable()
        table.add("range", range_)  # as in a prim_func: ``range`` is a serial loop
        parser.table = ev.table = table
        ev.env = mac.env
    try:
        with parser.table.frame():
            for key, value in bound.items():
                parser.table.add(key, value)
            parser.macro_returns.append(_Return)
            try:
                yield
            finally:
                parser.macro_returns.pop()
    finally:
        parser.table, ev.table, ev.env = saved


#: macro call sites one diagnostic lists at most: the innermost and the outermost half each (a
#: macro that calls itself until the nesting limit stops it made 2,000 notes per diagnostic)
MAX_CALL_NOTES = 20
_ELIDED = "... {} more macro calls ..."


def _note_call_site(parser: Any, before: int, name: str, call_span: Any) -> None:
    if call_span is None:
        return
    where = f"line {call_span.line}"
    for k in range(before, len(parser.diagnostics)):
        d = parser.diagnostics[k]
        note = Note(f"in macro {name!r} called at {where}", call_span)
        parser.diagnostics[k] = Diagnostic(d.severity, d.code, d.span, d.message,
                                           _with_call_note(tuple(d.notes), note), d.fixes)


def _with_call_note(notes: tuple[Note, ...], note: Note) -> tuple[Note, ...]:
    """``notes`` plus the next (outer) call site, keeping the first and last
    ``MAX_CALL_NOTES // 2`` call sites and one note that counts those left out."""
    calls = [i for i, n in enumerate(notes) if n.message.startswith("in macro ")]
    if len(calls) < MAX_CALL_NOTES:
        return notes + (note,)
    half = MAX_CALL_NOTES // 2
    elided = [i for i, n in enumerate(notes) if n.message.startswith("... ")]
    if not elided:  # the first call left out: it becomes the count
        i = calls[half]
        return notes[:i] + (Note(_ELIDED.format(1)),) + notes[i + 1:] + (note,)
    j = elided[0]
    count = int(notes[j].message.split()[1]) + 1
    drop = next(i for i in calls if i > j)  # the oldest call kept after the count
    return (notes[:j] + (Note(_ELIDED.format(count)),) + notes[j + 1:drop] + notes[drop + 1:]
            + (note,))


# decorator mode (``T.macro`` here, ``T.prim_func`` / ``I.ir_module`` in tirkit.lang.entry): the
# source text of a Python function or class, and the names it sees
def _python_env(obj: Any) -> dict[str, Any]:
    env = dict(getattr(obj, "__globals__", {}) or vars(inspect.getmodule(obj) or object()))
    try:
        closure = inspect.getclosurevars(obj) if inspect.isfunction(obj) else None
    except (TypeError, ValueError):
        closure = None
    if closure is not None:
        env.update(closure.nonlocals)
    return env


def _python_source(obj: Any) -> tuple[str, LineIndex, int]:
    lines, first = inspect.getsourcelines(obj)
    path = inspect.getsourcefile(obj) or "<python>"
    try:
        with open(path, encoding="utf-8") as fh:
            full = fh.read()
    except OSError:
        full = "\n" * (first - 1) + "".join(lines)
    li = LineIndex(full, path)
    start = li.offset(first, 0)
    return full[start:start + len("".join(lines))], li, start


def macro(*args: Any, hygienic: bool = True) -> Any:
    """``@T.macro`` / ``@T.macro(hygienic=False)`` in decorator mode: read the function's
    source and capture its globals and closure (``tvm.script.tir.macro``).

    Raises:
        ValueError: for any other use.
    """
    def deco(func: Callable[..., Any]) -> Macro:
        text, li, start = _python_source(func)
        return Macro(func.__name__, text, li, start, _python_env(func), hygienic)

    if not args:
        return deco
    if len(args) == 1 and callable(args[0]) and not isinstance(args[0], Macro):
        return deco(args[0])
    raise ValueError("Invalid use of T.macro. Usage: @T.macro, @T.macro(), "
                     "@T.macro(hygienic=[True|False])")


def static_macros(text: str, line_index: LineIndex, aliases: dict[str, str],
                  env: dict[str, Any], tree: ast.Module | None = None) -> None:
    """Bind every module-level ``@T.macro`` function of ``text`` in ``env`` (static mode: its
    source, not its execution); ``env`` itself is their hygienic environment. ``tree`` is
    ``text``'s ``ast`` module when the caller has it already."""
    if tree is None:
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):  # the host layer reports it
            return
    tir_aliases = {a for a, mod in aliases.items() if mod in ("tir", "tirx")}
    for stmt in tree.body:
        if not isinstance(stmt, ast.FunctionDef):
            continue
        hygienic = _macro_decorator(stmt, tir_aliases)
        if hygienic is None:
            continue
        first = min([d.lineno for d in stmt.decorator_list] + [stmt.lineno])
        start = line_index.offset(first, 0)
        last = stmt.end_lineno or stmt.lineno  # (set by ast.parse)
        end = line_index.offset(last, 0) + len(line_index.line_text(last))
        env[stmt.name] = Macro(stmt.name, text[start:end], line_index, start, env, hygienic)


def _macro_decorator(stmt: ast.FunctionDef, tir_aliases: set[str]) -> bool | None:
    """``True``/``False`` (its hygiene) when ``stmt`` is decorated with ``T.macro``."""
    for deco in stmt.decorator_list:
        call = deco if isinstance(deco, ast.Call) else None
        target = call.func if call is not None else deco
        if isinstance(target, ast.Attribute) and target.attr == "macro" and \
                isinstance(target.value, ast.Name) and target.value.id in tir_aliases:
            for kw in call.keywords if call is not None else []:
                if kw.arg == "hygienic" and isinstance(kw.value, ast.Constant):
                    return bool(kw.value.value)
            return True
    return None
