"""Quoted dims of a parameter's ``T.Buffer`` annotation (TVM 0.27's tirx printer).

TVM 0.27 declares a symbolic buffer param in the signature, naming a var the signature has not
defined yet as a string, as a Python forward reference: ``def f(A: T.Buffer(("n", 4)), n:
T.int32)`` or ``def f(A: T.Buffer(("n",)), B: T.Buffer((n * 2,)))`` with ``n = T.int32()`` in
the body. Here each string dim is read as the expression it holds; a name it uses that nothing
defines yet becomes a *forward var*: the later scalar param of that name (its annotation is
evaluated early), else an ``int32`` var (TVM's index dtype) that the body's ``n = T.int32()``
(same name and dtype) binds instead of making a new var.
"""
from __future__ import annotations

import ast
import dataclasses
from typing import Any, Callable, Sequence, cast

from tirkit import tir

from ..grammar import parse_module
from ..syntax import Node as SyntaxNode
from .var_table import MISSING


def resolve(self: Any, ann: Any, rest: Sequence[Any], param_var: Callable[[Any], Any]) -> Any:
    """``ann`` with each string dim of a ``T.Buffer((...), ...)`` call replaced by the parsed
    expression; forward vars are created and bound in ``self.table`` (``rest``: the params
    after this one, ``param_var(arg)``: the var a scalar param's annotation gives)."""
    if type(ann).__name__ != "Call" or not ann.args:
        return ann
    shape = ann.args[0]
    if type(shape).__name__ not in ("Tuple", "List") or not any(_is_str(e) for e in shape.elts):
        return ann
    elts = []
    for e in shape.elts:
        if not _is_str(e):
            elts.append(e)
            continue
        expr = _parse_expr(e)
        for name in _names(expr):
            if self.table.lookup(name) is MISSING and name not in self.evaluator.env:
                arg = next((a for a in rest if a.arg == name), None)
                var = param_var(arg) if arg is not None else None
                if not isinstance(var, tir.Var):
                    var = tir.Var(name, "int32")
                self.forward_vars[name] = var
                self.table.add(name, var)
        elts.append(expr)
    return _replace(ann, args=(_replace(shape, elts=tuple(elts)),) + tuple(ann.args[1:]))


def claim(self: Any, name: str, value: Any) -> Any:
    """The forward var named ``name`` when ``value`` is a fresh var of its dtype (``n =
    T.int32()`` in the body, or the scalar param ``n: T.int32``), else ``value``."""
    fwd = self.forward_vars.get(name)
    if fwd is value:  # the param whose annotation was evaluated early
        del self.forward_vars[name]
        return value
    if fwd is None or not isinstance(value, tir.Var) or value.dtype != fwd.dtype \
            or self.table.exist(value):
        return value
    del self.forward_vars[name]
    return fwd


def _is_str(node: Any) -> bool:
    return type(node).__name__ == "Constant" and isinstance(node.value, str)


def _parse_expr(node: Any) -> Any:
    """The expression a string constant holds, as a node of the same tree kind, located at
    the string."""
    if isinstance(node, ast.AST):
        expr = ast.parse(cast(Any, node).value, mode="eval").body
        for sub in ast.walk(expr):
            ast.copy_location(sub, node)
        return expr
    result = parse_module(f"_ = ({node.value})\n")
    if result.diagnostics or result.tree is None or len(result.tree.body) != 1:
        raise ValueError(f"the quoted dim {node.value!r} is not an expression")
    return _respan(cast(Any, result.tree.body[0]).value, node.span)


def _respan(node: Any, span: Any) -> Any:
    if isinstance(node, tuple):
        return tuple(_respan(n, span) for n in node)
    if not isinstance(node, SyntaxNode):
        return node
    changes = {f.name: _respan(getattr(node, f.name), span)
               for f in dataclasses.fields(node) if f.name != "span"}
    return dataclasses.replace(node, span=span, **changes)


def _names(expr: Any) -> list[str]:
    out: list[str] = []
    stack = [expr]
    while stack:
        n = stack.pop()
        if type(n).__name__ == "Name":
            out.append(n.id)
        elif isinstance(n, (list, tuple)):
            stack.extend(n)
        elif isinstance(n, ast.AST):
            stack.extend(ast.iter_child_nodes(n))
        elif dataclasses.is_dataclass(n) and not isinstance(n, type):
            stack.extend(getattr(n, f.name) for f in dataclasses.fields(n) if f.name != "span")
    return out


def _replace(node: Any, **changes: Any) -> Any:
    if isinstance(node, ast.AST):
        import copy  # pylint: disable=import-outside-toplevel

        new = copy.copy(node)
        for key, value in changes.items():
            setattr(new, key, list(value))
        return new
    return dataclasses.replace(node, **changes)
