"""Structural equality and hashing of IR (mirrors ``tvm.ir.structural_equal``,
``tvm.ir.structural_hash`` and ``tvm.ir.assert_structural_equal``).

The comparison is generic over the dataclass fields of the nodes (see :mod:`tirkit.ir.node`):

- fields marked ``def_field()`` are *definition points*: there, and in everything below them, a
  variable seen for the first time is mapped to its counterpart (TVM's ``DefEqual``, which is a
  comparison with ``map_free_vars`` switched on). Elsewhere a variable must already be mapped to
  exactly the counterpart, or, when free, be the very same object (unless ``map_free_vars``).
- fields marked ``ignored_field()`` (``Var.name_hint``, ``Buffer.name``) and ``span`` are skipped;
- the mapping is bijective: two different left variables never map to one right variable;
- a few classes have handlers in a registration table (variables, buffers, ops, global vars,
  modules); containers (tuples, dicts), floats (NaN equals NaN) and arrays are handled by kind.

Definition fields of a node are compared before its other fields (TVM visits definitions first);
:data:`_EARLY_FIELDS` lists further fields that must come early (a block's ``match_buffers``).

Hashing walks the same fields in the same order; a variable or buffer is hashed by the index of
its definition (a de Bruijn-like number), so equal structures hash equally.
"""
from __future__ import annotations

import functools
import hashlib
import json
import math
from functools import lru_cache
from typing import Any, Callable

from .deep import run_deep
from .dtype import DataType
from .node import Node, field_kind, node_fields

__all__ = ["structural_equal", "structural_hash", "assert_structural_equal", "first_mismatch",
           "register_structural", "MISSING"]


class _Missing:
    """Stands for the absent side of a length or key mismatch (TVM prints ``<missing>``)."""

    def __repr__(self) -> str:
        return "<missing>"


MISSING = _Missing()


# ------------------------------------------------------------------------------ field plans
_EARLY_FIELDS: dict[str, tuple[str, ...]] = {
    # Block: buffers matched from regions define names used by reads/writes/body
    "Block": ("match_buffers",),
}


_PLANS: dict[type, tuple[tuple[str, bool], ...]] = {}


def _field_plan(cls: type) -> tuple[tuple[str, bool], ...]:
    """``(name, is_def)`` of the compared fields of ``cls``: definitions first, then the early
    fields registered for the class, then the rest in declaration order."""
    plan = _PLANS.get(cls)
    if plan is None:
        plan = _PLANS[cls] = _make_plan(cls)
    return plan


def _make_plan(cls: type) -> tuple[tuple[str, bool], ...]:
    fields = [f for f in node_fields(cls) if field_kind(f) != "ignore"]
    early = next((_EARLY_FIELDS[b.__name__] for b in cls.__mro__ if b.__name__ in _EARLY_FIELDS),
                 ())
    defs = [(f.name, True) for f in fields if field_kind(f) == "def"]
    first = [(f.name, False) for f in fields if f.name in early and field_kind(f) != "def"]
    rest = [(f.name, False) for f in fields
            if field_kind(f) != "def" and f.name not in early]
    return tuple(defs + first + rest)


@lru_cache(maxsize=4096)
@lru_cache(maxsize=1 << 14)
@functools.lru_cache(maxsize=8192)
def _shash(text: str) -> int:
    """A process-independent hash of a string (Python's ``hash(str)`` is salted); memoized: the
    same dtype strings, names and attribute keys come back at every node of a function."""
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")


_TAGS: dict[type, int] = {}


def _class_tag(cls: type) -> int:
    tag = _TAGS.get(cls)
    if tag is None:
        tag = _TAGS[cls] = _shash(cls.__module__ + "." + cls.__qualname__)
    return tag


# ------------------------------------------------------------------------ handler registry
EqHandler = Callable[["_Equal", Any, Any, bool], bool]
HashHandler = Callable[["_Hasher", Any, bool], int]
_EQ_HANDLERS: dict[type, EqHandler] = {}
_HASH_HANDLERS: dict[type, HashHandler] = {}


def register_structural(cls: type, eq: EqHandler, hash_fn: HashHandler) -> None:
    """Register equality/hash handlers for a node class and its subclasses (no TVM counterpart:
    TVM classes define ``SEqualReduce``/``SHashReduce`` methods instead).

    ``eq(equal, lhs, rhs, def_mode) -> bool`` and ``hash_fn(hasher, node, def_mode) -> int``;
    handlers recurse through ``equal.eq(...)``/``equal.fields(...)`` and ``hasher.hash(...)``.
    """
    _EQ_HANDLERS[cls] = eq
    _HASH_HANDLERS[cls] = hash_fn
    _HANDLER_CACHE.clear()


_HANDLER_CACHE: dict[type, tuple[EqHandler | None, HashHandler | None]] = {}


def _lookup(cls: type) -> tuple[EqHandler | None, HashHandler | None]:
    found = _HANDLER_CACHE.get(cls)
    if found is None:
        _install_builtin_handlers()
        found = next(((_EQ_HANDLERS[b], _HASH_HANDLERS[b]) for b in cls.__mro__
                      if b in _EQ_HANDLERS), (None, None))
        _HANDLER_CACHE[cls] = found
    return found


# ------------------------------------------------------------------------------- equality
class _Equal:
    """One structural comparison: the var/buffer mapping and, on failure, the mismatch path."""

    def __init__(self, map_free_vars: bool) -> None:
        self.map_free_vars = map_free_vars
        self.lmap: dict[int, Any] = {}  # id(lhs) -> rhs
        self.rmap: dict[int, Any] = {}  # id(rhs) -> lhs
        self.order: dict[int, int] = {}  # id(lhs) -> definition number (matches _Hasher.index)
        self.segments: list[str] = []  # path segments, innermost first
        self.leaf: tuple[Any, Any] | None = None

    # -- bookkeeping
    def fail(self, lhs: Any, rhs: Any) -> bool:
        """Record the innermost differing pair and return ``False``."""
        if self.leaf is None:
            self.leaf = (lhs, rhs)
        return False

    def bind(self, lhs: Any, rhs: Any) -> None:
        """Map ``lhs`` to ``rhs`` (a definition)."""
        self.lmap[id(lhs)] = rhs
        self.rmap[id(rhs)] = lhs
        self.order[id(lhs)] = len(self.order)

    def path(self) -> str:
        """The mismatch path, root-relative (``body.block.name_hint``)."""
        return "".join(reversed(self.segments)).lstrip(".")

    # -- dispatch by kind of value
    def eq(self, lhs: Any, rhs: Any, dm: bool) -> bool:
        """Compare two field values; ``dm`` is definition mode (free vars get mapped)."""
        if isinstance(lhs, Node):
            return self.node(lhs, rhs, dm) if isinstance(rhs, Node) else self.fail(lhs, rhs)
        if isinstance(lhs, (tuple, list)):
            return self.seq(lhs, rhs, dm) if isinstance(rhs, (tuple, list)) else self.fail(lhs, rhs)
        if isinstance(lhs, dict):
            return self.mapping(lhs, rhs, dm) if isinstance(rhs, dict) else self.fail(lhs, rhs)
        if type(lhs) is not type(rhs):
            return self.fail(lhs, rhs)
        if lhs is None or lhs is rhs:
            return True
        if isinstance(lhs, float):
            return lhs == rhs or (math.isnan(lhs) and math.isnan(rhs)) or self.fail(lhs, rhs)
        if _is_array(lhs):
            return _array_equal(lhs, rhs) or self.fail(lhs, rhs)
        return bool(lhs == rhs) or self.fail(lhs, rhs)

    def node(self, lhs: Node, rhs: Node, dm: bool) -> bool:
        """Compare two nodes: mapping check, then the class handler or the generic fields."""
        if type(lhs) is not type(rhs):
            return self.fail(lhs, rhs)
        mapped = self.lmap.get(id(lhs))
        if mapped is not None:
            return mapped is rhs or self.fail(lhs, rhs)
        if id(rhs) in self.rmap:
            return self.fail(lhs, rhs)
        handler = _lookup(type(lhs))[0]
        if handler is not None:
            return handler(self, lhs, rhs, dm)
        return self.fields(lhs, rhs, dm)

    def fields(self, lhs: Node, rhs: Node, dm: bool) -> bool:
        """Compare the fields of two nodes of one class in plan order."""
        for name, is_def in _field_plan(type(lhs)):
            if not self.eq(getattr(lhs, name), getattr(rhs, name), dm or is_def):
                self.segments.append("." + name)
                return False
        return True

    def seq(self, lhs: Any, rhs: Any, dm: bool) -> bool:
        """Compare two sequences item by item; a length mismatch fails at the first extra item."""
        n = min(len(lhs), len(rhs))
        for i in range(n):
            if not self.eq(lhs[i], rhs[i], dm):
                self.segments.append(f"[{i}]")
                return False
        if len(lhs) != len(rhs):
            self.fail(lhs[n] if len(lhs) > n else MISSING, rhs[n] if len(rhs) > n else MISSING)
            self.segments.append(f"[{n}]")
            return False
        return True

    def mapping(self, lhs: dict, rhs: dict, dm: bool) -> bool:
        """Compare two dicts: keys matched by value, or by the var mapping for node keys."""
        matched: set[int] = set()
        for key in _ordered_keys(lhs, self.order):
            rkey = self._rhs_key(key, rhs)
            if rkey is MISSING:
                self.fail(lhs[key], MISSING)
            elif self.eq(lhs[key], rhs[rkey], dm):
                matched.add(id(rkey))
                continue
            self.segments.append(f"[{_key_text(key)}]")
            return False
        for key in rhs:
            if id(key) not in matched:
                self.fail(MISSING, rhs[key])
                self.segments.append(f"[{_key_text(key)}]")
                return False
        return True

    def _rhs_key(self, key: Any, rhs: dict) -> Any:
        if isinstance(key, Node):
            rkey = self.lmap.get(id(key), key)
            return rkey if rkey in rhs else MISSING
        for rkey in rhs:  # the identical key object, so that `matched` can track it by id
            if type(rkey) is type(key) and rkey == key:
                return rkey
        return MISSING


def _ordered_keys(d: dict, order: dict[int, int]) -> list[Any]:
    """Keys in a canonical order: primitive keys sorted, defined node keys by definition number,
    other node keys in insertion order."""
    prims = sorted((k for k in d if not isinstance(k, Node)), key=lambda k: (type(k).__name__,
                                                                            repr(k)))
    defined = sorted((k for k in d if isinstance(k, Node) and id(k) in order),
                     key=lambda k: order[id(k)])
    other = [k for k in d if isinstance(k, Node) and id(k) not in order]
    return prims + defined + other


def _key_text(key: Any) -> str:
    if isinstance(key, str):
        return json.dumps(key)
    name = getattr(key, "name_hint", None)
    return name if isinstance(name, str) else repr(key)


def _is_array(value: Any) -> bool:
    return hasattr(value, "shape") and hasattr(value, "dtype") and hasattr(value, "tobytes")


def _array_equal(lhs: Any, rhs: Any) -> bool:
    return (str(lhs.dtype) == str(rhs.dtype) and tuple(lhs.shape) == tuple(rhs.shape)
            and lhs.tobytes() == rhs.tobytes())


# -------------------------------------------------------------------------------- hashing
class _Hasher:
    """One structural hash: definition numbers of the vars and buffers met so far."""

    def __init__(self, map_free_vars: bool) -> None:
        self.map_free_vars = map_free_vars
        self.index: dict[int, int] = {}  # id(var or buffer) -> definition number
        self.keep: list[Any] = []  # keep indexed objects alive so their ids stay unique

    def define(self, obj: Any) -> int:
        """Give ``obj`` the next definition number."""
        self.index[id(obj)] = len(self.index)
        self.keep.append(obj)
        return self.index[id(obj)]

    def hash(self, value: Any, dm: bool) -> int:
        """Hash a field value; ``dm`` is definition mode."""
        cls = type(value)
        if cls in _PLAIN_LEAVES:  # the most common fields first: same value as the last line
            return hash((_class_tag(cls), _prim_hash(value)))
        if isinstance(value, Node):
            return self.node(value, dm)
        if isinstance(value, (tuple, list)):  # explicit loops: generators would use C stack
            parts = [1, len(value)]
            for item in value:
                parts.append(self.hash(item, dm))
            return hash(tuple(parts))
        if isinstance(value, dict):
            parts = [2]
            for key in _ordered_keys(value, self.index):
                parts.append(_key_hash(key, self.index))
                parts.append(self.hash(value[key], dm))
            return hash(tuple(parts))
        if value is None:
            return 0
        if isinstance(value, float) and math.isnan(value):
            return hash((3, 0x7FF8))
        if _is_array(value):
            return hash((4, _shash(str(value.dtype)), tuple(value.shape),
                         _shash(value.tobytes().hex())))
        return hash((_class_tag(type(value)), _prim_hash(value)))

    def node(self, value: Node, dm: bool) -> int:
        """Hash a node: by definition number when already defined, else its handler or fields."""
        idx = self.index.get(id(value))
        if idx is not None:
            return hash((5, idx))
        handler = _lookup(type(value))[1]
        if handler is not None:
            return handler(self, value, dm)
        return self.fields(value, dm)

    def fields(self, value: Node, dm: bool) -> int:
        """Hash the compared fields of a node in plan order."""
        parts = [_class_tag(type(value))]
        for name, is_def in _field_plan(type(value)):
            parts.append(self.hash(getattr(value, name), dm or is_def))
        return hash(tuple(parts))


#: exact classes of field values hashed by the generic last case of ``_Hasher.hash`` (checked
#: first, skipping the node/sequence/array tests they would fail)
_PLAIN_LEAVES = frozenset({int, str, bool, DataType})


def _prim_hash(value: Any) -> int:
    if isinstance(value, str):
        return _shash(value)
    if isinstance(value, (int, float)):
        return hash(value)
    if type(value).__name__ == "DataType":
        found = _DTYPE_HASHES.get(value)
        if found is None:
            found = _DTYPE_HASHES[value] = _shash(str(value))
        return found
    return hash(value)


#: DataType -> the hash of its string (a dtype's ``str`` costs more than the lookup)
_DTYPE_HASHES: dict[Any, int] = {}


def _key_hash(key: Any, index: dict[int, int]) -> int:
    if isinstance(key, Node):
        idx = index.get(id(key))
        return hash((5, idx)) if idx is not None else hash(key)
    return hash((_class_tag(type(key)), _prim_hash(key)))


# ----------------------------------------------------------------------- class handlers
# Handlers share one signature (see register_structural); some ignore the definition mode.
# pylint: disable=unused-argument
def _var_eq(eq: _Equal, lhs: Any, rhs: Any, dm: bool) -> bool:
    if not (dm or eq.map_free_vars):
        return lhs is rhs or eq.fail(lhs, rhs)
    if not eq.fields(lhs, rhs, dm):  # dtype, type_annotation (name_hint is ignored)
        return False
    eq.bind(lhs, rhs)
    return True


def _var_hash(hs: _Hasher, var: Any, dm: bool) -> int:
    base = hs.fields(var, dm)
    if not (dm or hs.map_free_vars):
        return hash((base, id(var)))
    return hash((base, 6, hs.define(var)))


def _buffer_eq(eq: _Equal, lhs: Any, rhs: Any, dm: bool) -> bool:
    # TVM's BufferNode::SEqualReduce uses DefEqual on data, shape, strides and elem_offset: a
    # buffer met first at a use point still defines its data var and symbolic shape vars.
    if not eq.fields(lhs, rhs, True):
        return False
    eq.bind(lhs, rhs)
    return True


def _buffer_hash(hs: _Hasher, buf: Any, dm: bool) -> int:
    base = hs.fields(buf, True)
    return hash((base, 7, hs.define(buf)))


def _global_var_eq(eq: _Equal, lhs: Any, rhs: Any, dm: bool) -> bool:
    if lhs.name_hint != rhs.name_hint:
        eq.fail(lhs.name_hint, rhs.name_hint)
        eq.segments.append(".name_hint")
        return False
    return True


def _global_var_hash(hs: _Hasher, gv: Any, dm: bool) -> int:
    return hash((_class_tag(type(gv)), _shash(gv.name_hint)))


def _op_eq(eq: _Equal, lhs: Any, rhs: Any, dm: bool) -> bool:
    return lhs is rhs or lhs.name == rhs.name or eq.fail(lhs, rhs)


def _op_hash(hs: _Hasher, op: Any, dm: bool) -> int:
    return hash((_class_tag(type(op)), _shash(op.name)))


def _module_functions(mod: Any) -> dict[str, Any]:
    return {gv.name_hint: func for gv, func in mod.functions.items()}


def _module_eq(eq: _Equal, lhs: Any, rhs: Any, dm: bool) -> bool:
    if not eq.mapping(_module_functions(lhs), _module_functions(rhs), dm):
        eq.segments.append(".functions")
        return False
    if not eq.eq(lhs.attrs, rhs.attrs, dm):
        eq.segments.append(".attrs")
        return False
    return True


def _module_hash(hs: _Hasher, mod: Any, dm: bool) -> int:
    return hash((_class_tag(type(mod)), hs.hash(_module_functions(mod), dm),
                 hs.hash(mod.attrs, dm)))


# pylint: enable=unused-argument
_INSTALLED = False


#: the handlers of a variable (compared by its binding; TVM's ``VarNode``) and of a buffer (a
#: definition wherever it is met; TVM's ``BufferNode``): tirkit.tir registers them for its ``Var``
#: and ``Buffer`` at their import (tir sits above ir)
VAR_HANDLERS: tuple[EqHandler, HashHandler] = (_var_eq, _var_hash)
BUFFER_HANDLERS: tuple[EqHandler, HashHandler] = (_buffer_eq, _buffer_hash)


def _install_builtin_handlers() -> None:
    """Register the handlers of ir's own node classes (imported lazily, at the first comparison)."""
    global _INSTALLED  # pylint: disable=global-statement
    if _INSTALLED:
        return
    _INSTALLED = True
    from .expr import GlobalVar  # pylint: disable=import-outside-toplevel
    from .module import IRModule  # pylint: disable=import-outside-toplevel
    from .op import Op  # pylint: disable=import-outside-toplevel

    for cls, eq, hs in ((GlobalVar, _global_var_eq, _global_var_hash), (Op, _op_eq, _op_hash),
                        (IRModule, _module_eq, _module_hash)):
        if cls not in _EQ_HANDLERS:  # keep an earlier register_structural() override
            _EQ_HANDLERS[cls] = eq
            _HASH_HANDLERS[cls] = hs


# ------------------------------------------------------------------------------ public API
def _compare(lhs: Any, rhs: Any, map_free_vars: bool) -> _Equal:
    # deep expression/statement chains recurse 3 to 8 Python frames per level: a deep walk
    # reruns on the deep worker (tirkit.ir.deep)
    return run_deep(_compare_walk, lhs, rhs, map_free_vars, what="structural_equal")


def _compare_walk(lhs: Any, rhs: Any, map_free_vars: bool) -> _Equal:
    eq = _Equal(map_free_vars)
    ok = eq.eq(lhs, rhs, False)
    if ok:
        eq.leaf = None
        eq.segments.clear()
    elif eq.leaf is None:
        eq.leaf = (lhs, rhs)
    return eq


def structural_equal(lhs: Any, rhs: Any, map_free_vars: bool = False) -> bool:
    """Whether two IR objects are structurally equal (mirrors ``tvm.ir.structural_equal``).

    Variables are equal when bound at corresponding definition points (loop vars, let vars, block
    iter vars, function params, allocated/declared/matched buffers); names are ignored. A free
    variable equals only itself, unless ``map_free_vars`` is true, in which case free variables
    are mapped one-to-one on first encounter. ``span`` is never compared. Works on nodes, tuples,
    lists, dicts and primitive values. Never raises for IR input.
    """
    return _compare(lhs, rhs, map_free_vars).leaf is None


def first_mismatch(lhs: Any, rhs: Any,
                   map_free_vars: bool = False) -> tuple[str, Any, Any] | None:
    """The first difference found by :func:`structural_equal`, or ``None`` when equal (the
    ``ObjectPathPair`` of TVM's ``GetFirstStructuralMismatch``).

    Returns ``(path, lhs_part, rhs_part)``: ``path`` is root-relative, e.g.
    ``"body.block.body.seq[1].value.b"`` (``""`` for the roots themselves), with ``.field``,
    ``[i]`` for sequence items and ``[key]`` for dict entries; a missing item is ``MISSING``.
    """
    eq = _compare(lhs, rhs, map_free_vars)
    if eq.leaf is None:
        return None
    return eq.path(), eq.leaf[0], eq.leaf[1]


def _short_repr(value: Any, limit: int = 160) -> str:
    try:
        text = repr(value)
    except RecursionError:
        text = f"{type(value).__name__}(...)"
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def assert_structural_equal(lhs: Any, rhs: Any, map_free_vars: bool = False) -> None:
    """Assert that two IR objects are structurally equal (mirrors
    ``tvm.ir.assert_structural_equal``).

    Raises:
        ValueError: when they differ, with the message
            ``StructuralEqual check failed, caused by lhs at <root>.PATH: ... and rhs at
            <root>.PATH: ...`` naming the first differing path (see :func:`first_mismatch`) and
            showing both differing parts.
    """
    found = first_mismatch(lhs, rhs, map_free_vars)
    if found is None:
        return
    path, left, right = found
    raise ValueError(f"StructuralEqual check failed, caused by lhs at {_where(path, left)}:\n"
                     f"  {_short_repr(left)}\nand rhs at {_where(path, right)}:\n"
                     f"  {_short_repr(right)}")


def _where(path: str, part: Any) -> str:
    """``path`` as TVM prints it: from ``<root>``, a missing item as ``[<missing:i>]``."""
    where = "<root>" + ("." + path if path and not path.startswith("[") else path)
    if part is MISSING and where.endswith("]"):
        head, _, key = where[:-1].rpartition("[")
        where = f"{head}[<missing:{key}>]"
    return where


def structural_hash(node: Any, map_free_vars: bool = False) -> int:
    """Structural hash of an IR object (mirrors ``tvm.ir.structural_hash``).

    Consistent with :func:`structural_equal`: equal objects (with the same ``map_free_vars``)
    hash equally. Bound variables and buffers hash by definition order, free variables by
    identity unless ``map_free_vars``; names and spans are ignored. The value is stable across
    processes for IR without free variables. Returns a non-negative int below ``2**64``.
    """
    value = run_deep(_hash_walk, node, map_free_vars, what="structural_hash")
    return value & 0xFFFFFFFFFFFFFFFF


def _hash_walk(node: Any, map_free_vars: bool) -> int:
    return _Hasher(map_free_vars).hash(node, False)
