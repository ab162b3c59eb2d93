"""Faster ``__init__`` for frozen, slotted dataclasses (no TVM counterpart: TVM's objects are C++).

A frozen dataclass stores each field with ``object.__setattr__(self, name, value)``, which looks
the attribute up by name every time; :func:`fast_init` writes the same ``__init__`` storing through
each slot's member descriptor. IR nodes (:func:`tirkit.ir.node.node`), :class:`~tirkit.ir.span.Span`
and the syntax tree of :mod:`tirkit.lang.syntax` are built with it.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Callable

__all__ = ["fast_init"]

_MISSING = dataclasses.MISSING


def fast_init(cls: type) -> Callable[..., None] | None:
    """The dataclass ``__init__`` of ``cls`` with each field stored through its slot's member
    descriptor (``descriptor.__set__(self, value)``) instead of ``object.__setattr__(self, name,
    value)``, the frozen dataclass's way, which costs a third more per field: every pass builds
    thousands of nodes. The same parameters, defaults, default factories, fields set and
    ``__post_init__`` call (dataclasses' ``_init_fn`` for ``frozen=True, slots=True``); None
    (keep the dataclass's own) for anything else (InitVars, a field without a slot). No TVM
    counterpart (TVM's nodes are C++ objects)."""
    fields = list(getattr(cls, "__dataclass_fields__", {}).values())
    plain = dataclasses._FIELD  # type: ignore[attr-defined]  # pylint: disable=protected-access
    if any(f._field_type is not plain for f in fields):  # pylint: disable=protected-access
        return None  # InitVar / ClassVar pseudo-fields: the dataclass's own __init__
    scope: dict[str, Any] = {"_HAS_FACTORY": _HAS_FACTORY}
    std: list[str] = []
    kw: list[str] = []
    body: list[str] = []
    for f in fields:
        desc: Any = next((k.__dict__[f.name] for k in cls.__mro__ if f.name in k.__dict__), None)
        if type(desc).__name__ != "member_descriptor":
            return None
        scope[f"_set_{f.name}"] = desc.__set__
        if f.init:
            if f.default is not _MISSING:
                scope[f"_dflt_{f.name}"] = f.default
                param = f"{f.name}=_dflt_{f.name}"
            elif f.default_factory is not _MISSING:
                param = f"{f.name}=_HAS_FACTORY"
            else:
                param = f.name
            (kw if f.kw_only else std).append(param)
        if f.default_factory is not _MISSING:
            scope[f"_factory_{f.name}"] = f.default_factory
            value = (f"_factory_{f.name}() if {f.name} is _HAS_FACTORY else {f.name}" if f.init
                     else f"_factory_{f.name}()")
        elif f.init:
            value = f.name
        elif f.default is not _MISSING:
            scope[f"_dflt_{f.name}"] = f.default
            value = f"_dflt_{f.name}"
        else:
            continue  # set by __post_init__
        body.append(f"    _set_{f.name}(self, {value})\n")
    if hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()\n")
    params = ", ".join(["self", *std, *(["*", *kw] if kw else [])])
    exec(f"def __init__({params}):\n{''.join(body) or '    pass' + chr(10)}", scope)  # pylint: disable=exec-used
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    dataclass_init = getattr(cls, "__init__")  # (mypy: __init__ read from a class object)
    init.__doc__ = dataclass_init.__doc__
    init.__annotations__ = dict(dataclass_init.__annotations__)  # the same signature, typed
    return init


class _HasFactory:  # the default of a parameter whose field has a default factory
    def __repr__(self) -> str:
        return "<factory>"


_HAS_FACTORY = _HasFactory()
