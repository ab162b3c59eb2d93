"""Types of the IR beyond dtypes (mirrors ``tvm.ir.type``): PrimType, PointerType, TupleType."""
from __future__ import annotations

from typing import Any

from .dtype import DataType, dtype as _dtype
from .node import Coerced, Node, TupleOf, node, coerced_field


@node
class Type(Node):
    """Base of IR types (mirrors ``tvm.ir.Type``)."""


@node
class PrimType(Type):
    """The type of a primitive value of ``dtype`` (mirrors ``tvm.ir.PrimType``)."""

    dtype: Coerced[DataType, str | DataType]

    def __post_init__(self) -> None:
        object.__setattr__(self, "dtype", _dtype(self.dtype))


@node
class PointerType(Type):
    """A pointer to ``element_type`` in memory ``storage_scope`` (mirrors ``tvm.ir.PointerType``).

    ``storage_scope`` is ``"global"`` when empty, as in TVM (``""`` and ``"global"`` are the same).
    """

    element_type: Coerced[Type, Type | str | DataType]
    storage_scope: str = "global"

    def __post_init__(self) -> None:
        if isinstance(self.element_type, (str, DataType)):
            object.__setattr__(self, "element_type", PrimType(_dtype(self.element_type)))
        if not isinstance(self.storage_scope, str):
            raise TypeError(f"the storage scope must be a string, got '{self.storage_scope}' "
                            f"({type(self.storage_scope).__name__})")
        if not self.storage_scope:
            object.__setattr__(self, "storage_scope", "global")


@node
class TupleType(Type):
    """A tuple of types; ``TupleType([])`` is the unit/void type (mirrors ``tvm.ir.TupleType``)."""

    fields: TupleOf[Type] = coerced_field(default=())

    def __post_init__(self) -> None:
        object.__setattr__(self, "fields", tuple(self.fields))


def type_of_dtype(value: Any) -> Type:
    """The ``Type`` TVM gives a value of ``dtype`` (void → ``TupleType([])``)."""
    t = _dtype(value)
    return TupleType(()) if t.is_void() else PrimType(t)
