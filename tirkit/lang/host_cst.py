"""The libcst half of the host layer (:mod:`tirkit.lang.host`): the lossless tree's imports and
units located by one counting codegen pass, and the syntax diagnostic of a file libcst cannot
parse. Imported by :meth:`~tirkit.lang.host.HostFile.parse` when first needed, so the readers of
units that locate them from Python's ``ast`` (``parse_file``, ``tirc``, ``tirfmt``) do not load
libcst (about 0.16 s of imports). No TVM counterpart (TVM reads a unit with
``inspect.getsource``).
"""
from __future__ import annotations

import ast
import warnings
from contextlib import nullcontext
from dataclasses import dataclass

import libcst as cst
from libcst._nodes.internal import CodegenState

from ..ir.diagnostics import Diagnostic, Note
from ..ir.span import LineIndex
from .host_imports import UNIT_DECORATORS, HostImports, ImportBinding
from .host_scan import FoundUnit, extend_over_comments, indent_width, line_start, split_lines

__all__ = ["cst", "locate_with_libcst", "source_arguments", "syntax_diagnostic"]


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


def locate_with_libcst(module: cst.Module, text: str,
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


def source_arguments(source: str) -> _Arguments:
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


def syntax_diagnostic(text: str, index: LineIndex, error: Exception) -> Diagnostic:
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
