"""PrimFunc: a TIR function (mirrors ``tvm.tir.PrimFunc``)."""
from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from ..ir.module import BaseFunc
from ..ir.node import AttrsField, Coerced, coerced_field, def_field, node
from ..ir.type import PrimType, TupleType, Type, type_of_dtype
from .buffer import Buffer
from .expr import Var
from .stmt import Stmt


@node
class PrimFunc(BaseFunc):
    """A function over primitive values and buffers (mirrors ``tvm.tir.PrimFunc``).

    ``params`` are Vars (handles for buffer arguments, scalars otherwise); ``buffer_map`` maps a
    handle param to the Buffer it is bound to (``T.match_buffer`` / ``T.Buffer`` annotations);
    ``ret_type`` is a ``Type`` (``TupleType([])`` = void); ``attrs`` a dict such as
    ``{"global_symbol": "main", "tir.noalias": True}``.

    As in TVM's Python constructor, a Buffer in ``params`` is replaced by a fresh ``handle`` var
    named after the buffer and entered into ``buffer_map``.

    Raises:
        ValueError: when ``buffer_map`` has a key that is not a param.
    """

    params: Coerced[tuple[Var, ...], Iterable[Var | Buffer]] = def_field()
    body: Stmt
    ret_type: Coerced[Type, Type | str | None] = coerced_field(default=None)
    buffer_map: Coerced[dict[Var, Buffer], Mapping[Var, Buffer] | None] = \
        def_field(default_factory=dict)
    attrs: AttrsField = coerced_field(default_factory=dict)

    def __post_init__(self) -> None:
        params: list[Var] = []
        bmap: dict[Var, Buffer] = dict(self.buffer_map or {})
        for p in self.params:
            if isinstance(p, Buffer):
                v = Var(p.name, "handle")
                bmap[v] = p
                p = v
            params.append(p)
        for v in bmap:
            if not any(v is p for p in params):
                raise ValueError(f"PrimFunc: buffer_map key {v.name_hint!r} is not a parameter")
        ret = self.ret_type
        if ret is None or isinstance(ret, str):
            ret = type_of_dtype(ret or "void")
        object.__setattr__(self, "params", tuple(params))
        object.__setattr__(self, "buffer_map", bmap)
        object.__setattr__(self, "ret_type", ret)
        object.__setattr__(self, "attrs", dict(self.attrs or {}))

    def __hash__(self) -> int:
        return object.__hash__(self)

    def with_body(self, new_body: Stmt, span: Any = None) -> "PrimFunc":
        """A copy with ``body`` replaced (``PrimFunc.with_body``)."""
        return self.with_changes(body=new_body, span=span if span is not None else self.span)

    @property
    def returns_void(self) -> bool:
        """Whether ``ret_type`` is void (``TupleType([])``)."""
        return isinstance(self.ret_type, TupleType) and not self.ret_type.fields

    @property
    def ret_dtype(self) -> Any:
        """The dtype of a primitive return type, else ``None``."""
        return self.ret_type.dtype if isinstance(self.ret_type, PrimType) else None

    def buffer_of(self, param: Var | str) -> Buffer | None:
        """The buffer bound to a handle param (by Var or name), or ``None``."""
        for v, b in self.buffer_map.items():
            if v is param or v.name_hint == param:
                return b
        return None

    def param_names(self) -> Sequence[str]:
        """Names of the params in order."""
        return [p.name_hint for p in self.params]
