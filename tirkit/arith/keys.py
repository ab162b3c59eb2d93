"""Structural keys of expressions: hashable tuples equal exactly when two expressions are
structurally equal with free variables compared by identity.

Used by the simplifier to combine like terms and compare operands; independent of
``tirkit.ir.structural`` so that the analyzer stays self-contained.
"""
from __future__ import annotations

from typing import Any, Callable

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
    fn = _COMPUTE.get(type(e))
    if fn is None:
        fn = _COMPUTE[type(e)] = _key_function(type(e))
    return fn(e, cache)


#: node class -> the function computing its key (made on first use by :func:`_key_function`)
_COMPUTE: dict[type, Callable[[Any, Any], Key]] = {}


def _key_function(cls: type) -> Callable[[Any, Any], Key]:
    """How a key of a ``cls`` is made: constants by dtype and value, vars by identity, ops by
    name, other nodes by class, dtype and the keys of their constructor fields in declaration
    order (straight-line code per class), anything else by identity."""
    if issubclass(cls, IntImm):
        return lambda e, cache: ("int", str(e.dtype), e.value)
    if issubclass(cls, FloatImm):
        return lambda e, cache: ("float", str(e.dtype), e.value)
    if issubclass(cls, Var):
        return lambda e, cache: ("var", id(e))
    if issubclass(cls, Op):
        return lambda e, cache: ("op", e.name)
    if not issubclass(cls, Node):
        return lambda e, cache: ("obj", id(e))
    init = init_field_names(cls)
    names = [f.name for f in node_fields(cls) if f.name in init]
    parts = "".join(f", _field_key(e.{name}, cache)" for name in names)
    scope = {"_field_key": _field_key, "NAME": cls.__name__}
    exec("def key(e, cache):\n"  # pylint: disable=exec-used
         f"    return (NAME, str(getattr(e, 'dtype', '')){parts})\n", scope)
    return scope["key"]


_SEQ, _EXPR, _PLAIN, _DTYPE, _IDENTITY = range(5)
#: value class -> how a field value of that class enters a key (see :func:`_field_kind`)
_FIELD_KINDS: dict[type, int] = {}


def _field_kind(cls: type) -> int:
    if issubclass(cls, (tuple, list)):
        return _SEQ
    if issubclass(cls, (Var, Op, IntImm, FloatImm)):
        return _EXPR
    if issubclass(cls, Node):
        return _EXPR if issubclass(cls, PrimExpr) else _IDENTITY  # buffers, iter vars...
    if issubclass(cls, (int, float, str, bool, type(None))):
        return _PLAIN
    if issubclass(cls, DataType):
        return _DTYPE
    return _IDENTITY


def _field_key(v: Any, cache: dict | None) -> Any:
    kind = _FIELD_KINDS.get(type(v))
    if kind is None:
        kind = _FIELD_KINDS[type(v)] = _field_kind(type(v))
    if kind == _EXPR:
        return expr_key(v, cache)
    if kind == _PLAIN:
        return v
    if kind == _SEQ:
        return ("seq",) + tuple(_field_key(x, cache) for x in v)
    if kind == _DTYPE:
        return str(v)
    return ("obj", id(v))
