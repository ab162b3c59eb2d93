"""The base of every IR node: frozen, slotted dataclasses with an optional span.

Mirrors ``tvm.runtime.Object`` / ``tvm.ir.Node``. Every node class is declared with :func:`node`;
its dataclass fields are its IR fields (in TVM's constructor order) and carry metadata telling the
generic machinery (structural equality, visitors, printer) how to treat them:

- ``def_field()``: a *definition point* (loop var, let var, block iter vars, function params,
  allocated buffers). Structural equality maps the left var to the right one there.
- ``span``: keyword-only on every node, ignored by structural equality.
"""
from __future__ import annotations

import dataclasses
import sys
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Generic, Iterable, Mapping, TypeVar, Union, cast

from .. import _layers
from .fast_init import fast_init as _fast_init
from .span import Span

N = TypeVar("N")
_Stored = TypeVar("_Stored", covariant=True)
_Accepted = TypeVar("_Accepted", contravariant=True)

SEQUAL = "sequal"  # metadata key: "def" (definition point), "ignore" (not compared)


def def_field(**kwargs: Any) -> Any:
    """A dataclass field that is a definition point for structural equality (TVM ``DefEqual``)."""
    return field(metadata={SEQUAL: "def"}, **kwargs)


def ignored_field(**kwargs: Any) -> Any:
    """A dataclass field structural equality and hashing ignore (like TVM's ``name_hint``)."""
    return field(metadata={SEQUAL: "ignore"}, **kwargs)


class Coerced(Generic[_Stored, _Accepted]):
    """The annotation of a node field whose constructor argument is converted before it is
    stored: ``dtype: Coerced[DataType, str | DataType]`` reads as a ``DataType`` and the
    constructor takes a string too (the node's ``__post_init__`` converts it). For type checkers
    only (a data descriptor's ``__get__``/``__set__`` types, as PEP 681 reads them); never
    instantiated. No TVM counterpart (TVM's Python constructors convert their arguments too)."""

    def __get__(self, obj: Any, owner: Any = None) -> _Stored:
        raise NotImplementedError  # pragma: no cover

    def __set__(self, obj: Any, value: _Accepted) -> None:
        raise NotImplementedError  # pragma: no cover


def coerced_field(**kwargs: Any) -> Any:
    """``dataclasses.field(**kwargs)`` for a :class:`Coerced` field with a default: the default
    is of the accepted type, which a type checker would not take for the descriptor's. No TVM
    counterpart (typing only)."""
    return field(**kwargs)


_T = TypeVar("_T")
#: a tuple field whose constructor takes any iterable (``__post_init__`` makes it a tuple)
TupleOf = Coerced[tuple[_T, ...], Iterable[_T]]
#: an attributes dict field (``attrs``, ``annotations``) whose constructor takes any mapping or
#: None (``__post_init__`` makes it a dict)
AttrsField = Coerced[dict[str, Any], Union[Mapping[str, Any], None]]


if sys.version_info >= (3, 11):
    from typing import dataclass_transform
else:  # Python 3.10: type checkers read the 3.11 branch
    def dataclass_transform(**_: Any) -> Callable[[Any], Any]:
        return lambda fn: fn


# (frozen_default stays False: the nodes are frozen, but mypy's frozen emulation (2.4) re-declares
# a subclass's inherited fields with their constructor types, which turns a Coerced field read
# through a subclass into the accepted type instead of the stored one)
@dataclass_transform(eq_default=False,
                     field_specifiers=(field, def_field, ignored_field, coerced_field))
def node(cls: type[N]) -> type[N]:
    """Class decorator declaring an IR node: ``dataclass(frozen, slots, eq=False, repr=False)``.

    ``eq=False`` keeps identity hashing (TVM's ``ObjectRef`` hash) and lets expression classes
    overload ``==`` to build IR (``a == b`` is an ``EQ`` node, as in TVM).
    """
    own_init = "__init__" in cls.__dict__  # written by hand: the dataclass keeps it, so do we
    out = dataclass(frozen=True, slots=True, eq=False, repr=False)(cls)
    init = None if own_init else _fast_init(out)
    if init is not None:
        out.__init__ = init  # type: ignore[method-assign]
    return out


@node
class Node:
    """Base of all IR nodes (mirrors ``tvm.runtime.Object``).

    Nodes are immutable: use :meth:`with_changes` to derive an updated copy. ``span`` is the source
    text the node came from, or ``None``.
    """

    span: Span | None = field(default=None, kw_only=True, metadata={SEQUAL: "ignore"})

    def with_changes(self: N, **changes: Any) -> N:
        """A copy with some fields replaced (like ``dataclasses.replace``; derived fields such as a
        binary op's ``dtype`` are recomputed). Keeps ``span`` unless given."""
        rebuild = _REBUILD.get(type(self))
        if rebuild is None:
            rebuild = _REBUILD[type(self)] = _make_rebuild(type(self))
        return rebuild(self, changes)

    def same_as(self, other: object) -> bool:
        """Reference equality (TVM ``Object.same_as``)."""
        return self is other

    def script(self, **config: Any) -> str:
        """Print as TVMScript (``tvm.runtime.Object.script``); see ``tirkit.printer.script``."""
        return _layers.get("script")(self, **config)  # tirkit.printer.script

    def __repr__(self) -> str:
        return _generic_repr(self)


_F = TypeVar("_F", bound=Callable[..., Any])


def _cached(fn: _F) -> _F:
    """``lru_cache(maxsize=None)``, typed as the function it caches: mypy 2.4 takes a node class
    (``type[Node]``) for unhashable, which lru_cache's typed wrapper then refuses."""
    return cast(_F, lru_cache(maxsize=None)(fn))


@_cached
def node_fields(cls: type) -> tuple[dataclasses.Field, ...]:
    """The IR fields of a node class in declaration order, ``span`` excluded."""
    return tuple(f for f in dataclasses.fields(cls) if f.name != "span")


#: node class -> its ``rebuild(node, changes)`` (see :func:`_make_rebuild`; a plain dict:
#: ``with_changes`` runs for every rebuilt node of every pass, and an ``lru_cache`` call costs more
#: than the lookup)
_REBUILD: dict[type, Callable[[Any, dict[str, Any]], Any]] = {}


def _make_rebuild(cls: type) -> Callable[[Any, dict[str, Any]], Any]:
    """What :meth:`Node.with_changes` does for ``cls``, as straight-line code: the constructor
    called with every field of :func:`init_field_order` by keyword, in that order, each taken
    from ``changes`` when there and from the node otherwise (the call ``cls(**kwargs)`` made
    with a dict built field by field, without building it); a change naming a derived or unknown
    field goes to ``dataclasses.replace`` (its error)."""
    names = init_field_order(cls)
    args = ", ".join(f"{n}=get({n!r}, node.{n})" for n in names)
    scope: dict[str, Any] = {"CLS": cls, "NAMES": frozenset(names),
                             "replace": dataclasses.replace}
    exec("def rebuild(node, changes):\n"  # pylint: disable=exec-used
         "    if not NAMES.issuperset(changes):\n"
         "        return replace(node, **changes)\n"
         "    get = changes.get\n"
         f"    return CLS({args})\n", scope)
    return scope["rebuild"]


@_cached
def init_field_order(cls: type) -> dict[str, None]:
    """The constructor's field names of a node class, in order (as a dict, for fast membership);
    what :meth:`Node.with_changes` copies (the work of ``dataclasses.replace``, read once). No TVM
    counterpart (TVM's reflection lists an object's fields)."""
    return dict.fromkeys(f.name for f in dataclasses.fields(cls) if f.init)


@_cached
def init_field_names(cls: type) -> frozenset[str]:
    """Names of the fields a node's constructor takes (derived fields such as ``dtype`` of ``Add``
    are excluded)."""
    return frozenset(f.name for f in dataclasses.fields(cls) if f.init)


def field_kind(f: dataclasses.Field) -> str | None:
    """``"def"`` (TVM ``DefEqual``), ``"ignore"`` or ``None`` for a node field."""
    return f.metadata.get(SEQUAL)


def _generic_repr(obj: Node) -> str:
    parts = []
    for f in node_fields(type(obj)):
        if not f.init:
            continue
        parts.append(f"{f.name}={getattr(obj, f.name)!r}")
    return f"{type(obj).__name__}({', '.join(parts)})"


def is_node(obj: object) -> bool:
    """Whether ``obj`` is an IR node (an instance of the ``tvm.runtime.Object`` analogue)."""
    return isinstance(obj, Node)


def map_fields(obj: N, fn: Callable[[Any], Any]) -> N:
    """Apply ``fn`` to each constructor field value of ``obj``; return ``obj`` itself when every
    result is the identical object (copy-on-write, as TVM's ``StmtMutator`` does), else a new
    node."""
    cls = type(obj)
    changes = {}
    names = init_field_names(cls)
    for f in node_fields(cls):
        if f.name not in names:
            continue
        old = getattr(obj, f.name)
        new = fn(old)
        if new is not old:
            changes[f.name] = new
    if not changes:
        return obj
    return obj.with_changes(**changes)  # type: ignore[attr-defined]


def fill_missing_spans(root: Any, span: Any, stop_at: tuple[type, ...] = ()) -> None:
    """Give ``span`` to ``root`` and every node under it that has none (TVM keeps a ``span`` on
    every node too; DESIGN.md contract 3:
    IR built from source carries the span of the text it came from). Nodes that already have a
    span keep it; their children are still visited. Spans are metadata, not part of a node's
    value, so they are set in place."""
    if span is None:
        return
    stack = [root]
    seen: set[int] = set()
    pop, push, extend, mark = stack.pop, stack.append, stack.extend, seen.add
    plans, set_span = _SPAN_PLAN, SET_SPAN
    while stack:
        obj = pop()
        plan = plans.get(type(obj))
        if plan is None:
            plan = plans[type(obj)] = _span_plan(type(obj))
        if plan.__class__ is tuple:  # a node class: the names of its IR fields
            if id(obj) in seen:
                continue
            mark(id(obj))
            if obj.span is None:
                set_span(obj, span)
            elif obj is not root and isinstance(obj, stop_at):
                continue  # already complete: filled when it was built
            for name in plan:
                value = getattr(obj, name, None)
                if isinstance(value, _SPAN_CONTAINERS):
                    push(value)
        elif plan is _SEQUENCE:
            extend(obj)
        elif plan is _MAPPING:
            extend(obj.keys())
            extend(obj.values())


_SPAN_CONTAINERS = (Node, tuple, list, dict)
#: ``SET_SPAN(node, span)`` stores a node's span through its slot (nodes are frozen; this is
#: ``object.__setattr__(node, "span", span)`` without the attribute lookup by name)
SET_SPAN = Node.__dict__["span"].__set__
_SEQUENCE, _MAPPING, _SKIP = "sequence", "mapping", "skip"
#: class -> what :func:`fill_missing_spans` does with its objects: a node class's IR field
#: names, or _SEQUENCE / _MAPPING (visit the items), or _SKIP (anything else, and interned
#: nodes such as an ``Op``: one shared object, never given a span); filled on first use (it
#: runs for every statement parsed: a plain dict, cheaper than ``node_fields``' cache per node)
_SPAN_PLAN: dict[type, Any] = {}


def _span_plan(cls: type) -> Any:
    if issubclass(cls, Node):
        names = _span_walk(cls)
        return _SKIP if names is None else names
    if issubclass(cls, (tuple, list)):
        return _SEQUENCE
    if issubclass(cls, dict):
        return _MAPPING
    return _SKIP


def _span_walk(cls: type) -> tuple[str, ...] | None:
    if getattr(cls, "__interned__", False):
        return None
    return tuple(f.name for f in node_fields(cls))
