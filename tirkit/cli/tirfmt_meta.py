"""The metaprogramming forms a unit's source uses (issue 16), which ``tirfmt`` must not print
away: the printer prints the IR a form expands to, so formatting would replace a macro call, a
``T.compute``, a strided loop, a loop unrolled at parse time, ``T.meta_var`` or a starred
(rank-polymorphic) target with its expansion. ``tirfmt`` leaves such a unit as it is, with a
note naming the forms. No TVM counterpart (TVM has no formatter).
"""
from __future__ import annotations

import ast
import functools
import textwrap
from typing import AbstractSet, Any, Iterable

__all__ = ["macro_names", "metaprogramming_forms"]

_LOOP_KINDS = {"serial", "parallel", "vectorized", "unroll"}


def _decorated_as_macro(node: ast.AST, tir_aliases: set[str]) -> bool:
    for deco in getattr(node, "decorator_list", ()):
        target = deco.func if isinstance(deco, ast.Call) else deco
        if isinstance(target, ast.Attribute) and target.attr == "macro" and \
                isinstance(target.value, ast.Name) and target.value.id in tir_aliases:
            return True
    return False


def macro_names(source: str, tir_aliases: Iterable[str]) -> set[str]:
    """Names of the ``@T.macro`` functions defined anywhere in ``source`` (empty when the file
    does not parse as Python)."""
    if "macro" not in source:  # a ``@T.macro`` decorator spells it
        return set()
    aliases = set(tir_aliases)
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    return {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
            and _decorated_as_macro(n, aliases)}


def _t_call(node: ast.AST, tir_aliases: AbstractSet[str]) -> str | None:
    """``"compute"`` for ``T.compute(...)`` (any alias of the tir namespace), else None."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            isinstance(node.func.value, ast.Name) and node.func.value.id in tir_aliases:
        return node.func.attr
    return None


def _loop_form(node: ast.For, tir_aliases: AbstractSet[str]) -> str | None:
    it = node.iter
    if not isinstance(it, ast.Call):
        return "a loop unrolled at parse time"
    name = _t_call(it, tir_aliases)
    is_range = isinstance(it.func, ast.Name) and it.func.id == "range"
    if not (is_range or name in _LOOP_KINDS):
        return None
    steps = it.args[2:3] + [k.value for k in it.keywords if k.arg == "step"]
    unit_step = all(isinstance(s, ast.Constant) and s.value == 1 for s in steps)
    return None if unit_step else "a strided loop"


_T_FORMS = {"compute": "T.compute", "meta_var": "T.meta_var"}


def _form(node: ast.AST, tir_aliases: AbstractSet[str], macros: AbstractSet[str]) -> str | None:
    if isinstance(node, ast.Starred):
        return "a starred (rank-polymorphic) expression"
    if isinstance(node, ast.For):
        return _loop_form(node, tir_aliases)
    if isinstance(node, ast.Call):
        found = _T_FORMS.get(_t_call(node, tir_aliases) or "")
        if found:
            return found
        if isinstance(node.func, ast.Name) and node.func.id in macros:
            return f"macro `{node.func.id}`"
    return None


def _may_use_forms(unit_text: str, macros: set[str]) -> bool:
    """False when no form can occur: each needs its word or sign in the text (``for``, ``*``,
    ``compute``, ``meta_var``, a macro's name)."""
    return any(word in unit_text for word in ("for", "*", "compute", "meta_var", *macros))


def metaprogramming_forms(unit_text: str, tir_aliases: Iterable[str], macros: set[str]
                          ) -> list[str]:
    """The metaprogramming forms used in a unit's source (its text as the host layer gives it,
    decorators included), each named once; empty when the text does not
    parse as Python."""
    if not _may_use_forms(unit_text, macros):
        return []
    return list(_forms(unit_text, frozenset(tir_aliases), frozenset(macros)))


@functools.lru_cache(maxsize=256)
def _forms(unit_text: str, aliases: frozenset[str], macros: frozenset[str]) -> tuple[str, ...]:
    """:func:`metaprogramming_forms`, remembered: tirfmt's stability pass asks again about
    every unit that formatting left as it was (most units of TVM's test files, 63 of 65 in
    test_tir_schedule_compute_at.py)."""
    try:
        tree: Any = ast.parse(textwrap.dedent(unit_text))
    except SyntaxError:
        return ()
    found: list[str] = []
    for node in ast.walk(tree):
        form = _form(node, aliases, macros)
        if form and form not in found:
            found.append(form)
    return tuple(found)
