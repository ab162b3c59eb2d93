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


def keys_equal(a: Any, b: Any, cache: dict[int, tuple[Any, Key]] | None = None) -> bool:
    """``expr_key(a, cache) == expr_key(b, cache)``, decided without making the keys of the parts
    ``a`` and ``b`` share (the simplifier asks this of every rewritten node and its original,
    which mostly differ in one operand). No TVM counterpart (TVM compares hashes in C++)."""
    if a is b:
        return True
    cls = type(a)
    names = _NODE_FIELDS.get(cls) if cls is type(b) else None
    if names is None:
        if cls is not type(b) or cls in _NODE_FIELDS or not _is_plain_node(cls):
            return expr_key(a, cache) == expr_key(b, cache)
        names = _NODE_FIELDS[cls] = _key_field_names(cls)
    if str(getattr(a, "dtype", "")) != str(getattr(b, "dtype", "")):
        return False
    for name in names:
        x, y = getattr(a, name), getattr(b, name)
        if x is not y and _field_key(x, cache) != _field_key(y, cache):
            return False
    return True


def _is_plain_node(cls: type) -> bool:
    """Whether a key of a ``cls`` is (class name, dtype, field keys...) (see _key_function)."""
    return issubclass(cls, Node) and not issubclass(cls, (IntImm, FloatImm, Var, Op))


def _key_field_names(cls: type) -> tuple[str, ...]:
    init = init_field_names(cls)
    return tuple(f.name for f in node_fields(cls) if f.name in init)


#: node class with a (class name, dtype, field keys...) key -> its key fields
_NODE_FIELDS: dict[type, tuple[str, ...]] = {}


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
    names = _key_field_names(cls)
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
