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
    """``expr_key(a, cache) == expr_key(b, cache)``, decided by walking ``a`` and ``b`` side by
    side, stopping at shared objects and at the first difference, without making keys (the
    simplifier asks this of every rewritten node and its original, which are mostly equal and
    share their leaves). No TVM counterpart (TVM compares hashes in C++)."""
    if a is b:
        return True
    cls = type(a)
    if cls is not type(b):  # pylint: disable=unidiomatic-typecheck  # exact class
        return key_tag(a) == key_tag(b) and expr_key(a, cache) == expr_key(b, cache)
    fn = _EQUAL.get(cls)
    if fn is None:
        fn = _EQUAL[cls] = _equal_function(cls)
    return fn(a, b, cache)


#: node class -> the function deciding key equality of two distinct nodes of that class
_EQUAL: dict[type, Callable[[Any, Any, Any], bool]] = {}


def _same_value(x: Any, y: Any) -> bool:
    return x is y or x == y  # as a tuple compares its items


def _equal_function(cls: type) -> Callable[[Any, Any, Any], bool]:
    """How two distinct ``cls`` nodes compare, as their keys (see :func:`_key_function`) would:
    constants by dtype and value, vars never (their keys are their identity), ops by name,
    other nodes by dtype and their constructor fields (straight-line code per class)."""
    if issubclass(cls, (IntImm, FloatImm)):
        return lambda a, b, cache: _same_value(a.value, b.value) and (
            a.dtype is b.dtype or str(a.dtype) == str(b.dtype))
    if issubclass(cls, Op):
        return lambda a, b, cache: _same_value(a.name, b.name)
    if issubclass(cls, Var) or not issubclass(cls, Node):
        return lambda a, b, cache: False
    lines = ["def eq(a, b, cache):",
             "    da, db = getattr(a, 'dtype', ''), getattr(b, 'dtype', '')",
             "    if da is not db and str(da) != str(db):",
             "        return False"]
    for name in _key_field_names(cls):
        lines += [f"    x, y = a.{name}, b.{name}",
                  "    if x is not y and not _same_field(x, y, cache):",
                  "        return False"]
    lines.append("    return True")
    scope = {"_same_field": _same_field}
    exec("\n".join(lines) + "\n", scope)  # pylint: disable=exec-used
    return scope["eq"]


def _same_field(x: Any, y: Any, cache: dict | None) -> bool:
    """``_field_key(x, cache) == _field_key(y, cache)`` for ``x is not y``."""
    kx = _FIELD_KINDS.get(type(x))
    if kx is None:
        kx = _FIELD_KINDS[type(x)] = _field_kind(type(x))
    ky = _FIELD_KINDS.get(type(y))
    if ky is None:
        ky = _FIELD_KINDS[type(y)] = _field_kind(type(y))
    if kx != ky:
        return bool(_field_key(x, cache) == _field_key(y, cache))
    if kx == _EXPR:
        return keys_equal(x, y, cache)
    if kx == _PLAIN:
        return bool(x == y)
    if kx == _SEQ:
        return len(x) == len(y) and all(
            p is q or _same_field(p, q, cache) for p, q in zip(x, y))
    if kx == _DTYPE:
        return str(x) == str(y)
    return False  # compared by identity


def _key_field_names(cls: type) -> tuple[str, ...]:
    init = init_field_names(cls)
    return tuple(f.name for f in node_fields(cls) if f.name in init)


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
    return _generated_key(cls, _field_key, "cache")


def _generated_key(cls: type, field: Callable[[Any, Any], Any], arg: str) -> Callable[..., Key]:
    """``key(e, <arg>)``, compiled for ``cls``: ``(class name, dtype, field(e.<f>, <arg>)...)``
    over its key fields."""
    names = _key_field_names(cls)
    parts = "".join(f", _field(e.{name}, {arg})" for name in names)
    scope: dict[str, Any] = {"_field": field, "NAME": cls.__name__}
    exec(f"def key(e, {arg}):\n"  # pylint: disable=exec-used
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


def shallow_key(e: Any, child_id: Callable[[Any], int]) -> Key:
    """A hash-consing key of ``e``: :func:`expr_key` with the key of each PrimExpr child
    replaced by ``child_id(child)``, an int that must be equal for two children exactly when
    their ``expr_key`` are (an interning table of these keys gives such ints). Two nodes then
    have equal shallow keys exactly when their ``expr_key`` are equal, and making and hashing
    one costs the same whatever the depth of ``e`` (a deep key is hashed again in full at
    every lookup). Plain field values and dtypes are wrapped as ``("p", value)`` so that no
    child id equals them. No TVM counterpart (TVM hashes expressions in C++)."""
    fn = _SHALLOW.get(type(e))
    if fn is None:
        fn = _SHALLOW[type(e)] = _shallow_function(type(e))
    return fn(e, child_id)


#: node class -> the function computing its shallow key (see :func:`_shallow_function`)
_SHALLOW: dict[type, Callable[[Any, Callable[[Any], int]], Key]] = {}


def _shallow_function(cls: type) -> Callable[[Any, Callable[[Any], int]], Key]:
    """As :func:`_key_function`, the fields through :func:`_shallow_field`."""
    if issubclass(cls, (IntImm, FloatImm, Var, Op)) or not issubclass(cls, Node):
        deep = _key_function(cls)  # leaves: the same key
        return lambda e, child_id: deep(e, None)
    return _generated_key(cls, _shallow_field, "child_id")


def _shallow_field(v: Any, child_id: Callable[[Any], int]) -> Any:
    """:func:`_field_key` of ``v`` with a PrimExpr as ``child_id(v)`` (an int, which no other
    kind gives) and a plain value or dtype wrapped as ``("p", value)`` (so that a plain string
    still equals a dtype's text, as in :func:`_field_key`)."""
    kind = _FIELD_KINDS.get(type(v))
    if kind is None:
        kind = _FIELD_KINDS[type(v)] = _field_kind(type(v))
    if kind == _EXPR:
        return child_id(v)
    if kind == _PLAIN:
        return ("p", v)
    if kind == _SEQ:
        return ("seq",) + tuple(_shallow_field(x, child_id) for x in v)
    if kind == _DTYPE:
        return ("p", str(v))
    return ("obj", id(v))
