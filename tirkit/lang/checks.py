"""Syntax rules a context-free grammar cannot express, checked while the tree is built:
assignment targets, argument order, default parameters (Python's parser checks the same ones
in its ``invalid_*`` rules; TVM relies on Python's parser for them).

Each check appends ``"syntax"`` diagnostics with Python's wording to a list it is given.
"""
from __future__ import annotations

from typing import Iterable, Optional

from ..ir.diagnostics import Diagnostic
from . import syntax as S

_DESCRIPTIONS: dict[type, str] = {
    S.Call: "function call", S.Constant: "literal", S.Lambda: "lambda",
    S.IfExp: "conditional expression", S.ListComp: "list comprehension",
    S.SetComp: "set comprehension", S.DictComp: "dict comprehension",
    S.GeneratorExp: "generator expression", S.Dict: "dict literal", S.Set: "set display",
    S.JoinedStr: "f-string expression", S.NamedExpr: "named expression",
    S.Compare: "comparison",
}


def describe(node: S.Node) -> str:
    """How Python's error messages name an expression that cannot be assigned to."""
    if isinstance(node, S.Constant) and node.value in (None, True, False, ...):
        return repr(node.value) if node.value is not ... else "ellipsis"
    return _DESCRIPTIONS.get(type(node), "expression")


def _error(out: list[Diagnostic], node: S.Node, message: str) -> None:
    out.append(Diagnostic.error("syntax", node.span, message))


def check_target(node: S.ExprNode, verb: str, out: list[Diagnostic],
                 starred_ok: bool = False) -> None:
    """``node`` can be assigned to (``verb`` is "assign to" or "delete"): a name, attribute,
    subscript, or a tuple/list of targets with at most one starred one."""
    if isinstance(node, (S.Name, S.Attribute, S.Subscript)):
        return
    if isinstance(node, S.Starred) and verb != "delete":
        if not starred_ok:
            _error(out, node, "starred assignment target must be in a list or tuple")
        check_target(node.value, verb, out)
        return
    if isinstance(node, (S.Tuple, S.List)):
        stars = [e for e in node.elts if isinstance(e, S.Starred)]
        if len(stars) > 1 and verb != "delete":
            _error(out, stars[1], "multiple starred expressions in assignment")
        for elt in node.elts:
            check_target(elt, verb, out, starred_ok=True)
        return
    _error(out, node, f"cannot {verb} {describe(node)}")


def check_single_target(node: S.ExprNode, what: str, out: list[Diagnostic]) -> None:
    """The target of an annotated or augmented assignment: one name, attribute or subscript."""
    if isinstance(node, (S.Name, S.Attribute, S.Subscript)):
        return
    if what == "annotation":
        message = ("only single target (not tuple) can be annotated"
                   if isinstance(node, S.Tuple) else "illegal target for annotation")
    else:
        message = f"'{describe(node)}' is an illegal expression for augmented assignment"
    _error(out, node, message)


def check_value(node: Optional[S.ExprNode], out: list[Diagnostic]) -> None:
    """A value position (right of ``=``, ``return``, an expression statement) cannot be a bare
    ``*x``."""
    if isinstance(node, S.Starred):
        _error(out, node, "can't use starred expression here")


def check_call_arguments(items: Iterable[S.Node], out: list[Diagnostic]) -> None:
    """Python's order of call arguments: positional ones before keywords, ``*x`` before
    ``**y``."""
    seen_keyword = seen_double_star = False
    for item in items:
        if isinstance(item, S.keyword):
            seen_keyword = True
            seen_double_star = seen_double_star or item.arg is None
        elif isinstance(item, S.Starred):
            if seen_double_star:
                _error(out, item, "iterable argument unpacking follows keyword argument "
                                  "unpacking")
        elif seen_double_star:
            _error(out, item, "positional argument follows keyword argument unpacking")
        elif seen_keyword:
            _error(out, item, "positional argument follows keyword argument")


def check_defaults(params: list[tuple[S.arg, Optional[S.ExprNode]]],
                   out: list[Diagnostic]) -> None:
    """Positional parameters with defaults come last."""
    has_default = False
    for param, default in params:
        if default is not None:
            has_default = True
        elif has_default:
            _error(out, param, "non-default argument follows default argument")
