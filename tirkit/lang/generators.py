"""Kernel generators in static mode: a ``@T.prim_func`` nested in a Python function that
captures the function's parameters and locals (seed 001's F1)::

    def make_add(n, dtype):
        @T.prim_func
        def add(A: T.Buffer((n,), dtype)): ...

Static tools do not run the generator, so the captured names have no value. They are bound
so that valid generators are not reported as errors: a captured integer (annotated ``int``,
defaulting to an int, or used only where an integer fits) becomes a symbolic ``SizeVar`` — the
kernel is checked for every value — and a value that cannot be symbolic (a dtype, a shape
tuple) is a :class:`~.parser.evaluator.Captured` marker whose use is reported once as an
information-level note ("depends on the caller's `dtype`"), never as an error.
"""
from __future__ import annotations

import ast
from typing import Any, Callable, cast

from tirkit import tir
from tirkit.ir.diagnostics import Diagnostic, Severity

from .parser.evaluator import Captured, EvalError, Evaluator
from .parser.var_table import VarTable

__all__ = ["captured_names", "parse_generator_unit"]

_OPAQUE_ANNOTATIONS = {"str", "tuple", "list", "Sequence", "Tuple", "List", "dict", "DataType"}


def _enclosing(tree: ast.Module, name: str, line: int) -> list[ast.FunctionDef] | None:
    """The functions enclosing the ``def name`` at (or decorated from) ``line``."""
    def walk(node: ast.AST, chain: list) -> list | None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                first = min([d.lineno for d in child.decorator_list] + [child.lineno])
                if child.name == name and first <= line <= child.lineno:
                    return chain
                found = walk(child, chain + [child])
                if found is not None:
                    return found
            elif isinstance(child, ast.ClassDef):
                found = walk(child, chain)
                if found is not None:
                    return found
        return None
    return walk(tree, [])


def _param_value(arg: ast.arg, default: ast.expr | None, ev: Evaluator) -> Any:
    ann = arg.annotation
    ann_name = ann.id if isinstance(ann, ast.Name) else (
        ann.attr if isinstance(ann, ast.Attribute) else
        (ann.value.id if isinstance(ann, ast.Subscript) and isinstance(ann.value, ast.Name)
         else None))
    if ann_name == "int":
        return tir.SizeVar(arg.arg, "int32")
    if ann_name in _OPAQUE_ANNOTATIONS or "dtype" in arg.arg:
        return Captured(arg.arg)
    if default is not None:
        try:
            value = ev.eval(default)
        except EvalError:
            return Captured(arg.arg)
        if isinstance(value, int) and not isinstance(value, bool):
            return tir.SizeVar(arg.arg, "int32")
        return Captured(arg.arg)
    return tir.SizeVar(arg.arg, "int32")  # unknown: tried as an integer first


def captured_names(tree: ast.Module, name: str, line: int, env: dict[str, Any]
                   ) -> dict[str, Any] | None:
    """Values for the names the unit ``name`` (decorated from ``line``) captures from its
    enclosing functions, or ``None`` when it is not nested in a function."""
    chain = _enclosing(tree, name, line)
    if not chain:
        return None
    out: dict[str, Any] = {}
    ev = Evaluator(VarTable(), {**env}, static=True, span_of=lambda n: None)
    for fn in chain:
        args = fn.args
        positional = list(args.posonlyargs) + list(args.args)
        defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
        pairs = list(zip(positional, defaults)) + list(zip(args.kwonlyargs, args.kw_defaults))
        for extra in (args.vararg, args.kwarg):
            if extra is not None:
                pairs.append((extra, None))
                out[extra.arg] = Captured(extra.arg)
        for arg, default in pairs:
            if arg.arg not in out:
                out[arg.arg] = _param_value(arg, default, ev)
        cast(dict, ev.env).update(out)  # (the evaluator's own dict)
        for stmt in fn.body:
            if stmt.lineno >= line:
                break
            _local(stmt, ev, out)
    return out


def _local(stmt: ast.stmt, ev: Evaluator, out: dict[str, Any]) -> None:
    if isinstance(stmt, ast.Assign) and all(isinstance(t, ast.Name) for t in stmt.targets):
        try:
            value = ev.eval(stmt.value)
        except (EvalError, TypeError, ValueError):
            value = Captured(stmt.targets[0].id)  # type: ignore[attr-defined]
        for t in stmt.targets:
            out[t.id] = value if not isinstance(value, Captured) else Captured(t.id)  # type: ignore[attr-defined]
            cast(dict, ev.env)[t.id] = out[t.id]  # type: ignore[attr-defined]
    elif isinstance(stmt, (ast.FunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)):
        names = [stmt.name] if hasattr(stmt, "name") else \
            [(a.asname or a.name).split(".")[0] for a in stmt.names]
        for n in names:
            out.setdefault(n, Captured(n))
            cast(dict, ev.env)[n] = out[n]


def parse_generator_unit(parse: Callable[[dict[str, Any]], tuple[Any, list[Diagnostic]]],
                         env: dict[str, Any], captured: dict[str, Any]
                         ) -> tuple[Any, list[Diagnostic]]:
    """Parse a generator's unit with ``captured`` bound over ``env``: a symbolic name the
    kernel uses where no integer fits is retried as a :class:`Captured` value; uses of
    Captured values become one information note per name (the IR is then ``None``)."""
    captured = dict(captured)
    for _ in range(len(captured) + 1):
        ir, diags = parse({**env, **captured})
        retry = _misused_symbols(diags, captured)
        if not retry:
            break
        for name in retry:
            captured[name] = Captured(name)
    notes, seen, kept = [], set(), []
    for d in diags:
        if d.code != "captured":
            kept.append(d)
        elif d.message not in seen:
            seen.add(d.message)
            notes.append(Diagnostic(Severity.INFO, d.code, d.span, d.message, d.notes, d.fixes))
    return (ir if not notes else None), kept + notes


def _misused_symbols(diags: list[Diagnostic], captured: dict[str, Any]) -> list[str]:
    """Captured names bound to SizeVars that an error mentions: they are not integers."""
    out = []
    for name, value in captured.items():
        if not isinstance(value, tir.SizeVar):
            continue
        quoted = (f"'{name}'", f"`{name}`", f" {name}:", f"{name}: int32")
        if any(d.severity == Severity.ERROR and any(q in d.message for q in quoted)
               for d in diags):
            out.append(name)
    return out
