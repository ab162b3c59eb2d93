"""Structural keys of expressions: hashable tuples equal exactly when two expressions are
structurally equal with free variables compared by identity.

Used by the simplifier to combine like terms and compare operands; independent of
``tirkit.ir.structural`` so that the analyzer stays self-contained.
"""
from __future__ import annotations

from typing import Any

from ..ir.dtype import DataType
from ..ir.expr import FloatImm, IntImm, PrimExpr
from ..ir.node import Node, init_field_names, node_fields
from ..ir.op import Op
from ..tir.expr import Var

Key = tuple


def expr_key(e: Any, cache: dict[int, tuple[Any, Key]] | None = None) -> Key:
    """A hashable key of ``e``: equal keys mean structurally equal expressions, vars compared by
    identity (a hashable stand-in for TVM's ``StructuralEqual`` on expressions).

    ``cache`` (id -> (node, key)) avoids recomputing keys of shared sub-expressions.
    """
    if cache is not None:
        hit = cache.get(id(e))
        if hit is not None and hit[0] is e:
            return hit[1]
    key = _compute(e, cache)
    if cache is not None:
        cache[id(e)] = (e, key)
    return key


def key_tag(e: Any) -> Any:
    """The first item of ``expr_key(e)``, without computing the rest (what kind of node the key
    stands for): lets a table of keys skip the expressions none of its keys can match. No TVM
    counterpart (TVM hashes expressions in C++)."""
    if isinstance(e, IntImm):
        return "int"
    if isinstance(e, FloatImm):
        return "float"
    if isinstance(e, Var):
        return "var"
    if isinstance(e, Op):
        return "op"
    if isinstance(e, Node):
        return type(e).__name__
    return "obj"


def _compute(e: Any, cache: dict | None) -> Key:
    if isinstance(e, IntImm):
        return ("int", str(e.dtype), e.value)
    if isinstance(e, FloatImm):
        return ("float", str(e.dtype), e.value)
    if isinstance(e, Var):
        return ("var", id(e))
    if isinstance(e, Op):
        return ("op", e.name)
    if isinstance(e, Node):
        cls = type(e)
        names = _KEY_FIELDS.get(cls)
        if names is None:
            init = init_field_names(cls)
            names = _KEY_FIELDS[cls] = tuple(f.name for f in node_fields(cls) if f.name in init)
        parts: list[Any] = [cls.__name__, str(getattr(e, "dtype", ""))]
        for name in names:
            parts.append(_field_key(getattr(e, name), cache))
        return tuple(parts)
    return ("obj", id(e))


#: node class -> the constructor fields its key is made of, in declaration order
_KEY_FIELDS: dict[type, tuple[str, ...]] = {}


def _field_key(v: Any, cache: dict | None) -> Any:
    if isinstance(v, (tuple, list)):
        return ("seq",) + tuple(_field_key(x, cache) for x in v)
    if isinstance(v, (Var, Op, IntImm, FloatImm)):
        return expr_key(v, cache)
    if isinstance(v, Node):
        if _is_expr_like(v):
            return expr_key(v, cache)
        return ("obj", id(v))  # buffers, iter vars...: by identity
    if isinstance(v, (int, float, str, bool, type(None))):
        return v
    if isinstance(v, DataType):
        return str(v)
    return ("obj", id(v))


def _is_expr_like(v: Node) -> bool:
    return isinstance(v, PrimExpr)
