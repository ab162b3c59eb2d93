"""IRModule and BaseFunc (mirrors ``tvm.ir.IRModule`` and ``tvm.ir.BaseFunc``)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, Mapping

from .expr import BaseExpr, GlobalVar
from .node import AttrsField, Coerced, coerced_field, node


@node
class BaseFunc(BaseExpr):
    """Base of functions held in an ``IRModule`` (mirrors ``tvm.ir.BaseFunc``)."""

    if TYPE_CHECKING:  # every subclass has an attrs field
        @property
        def attrs(self) -> dict[str, Any]:
            """The function's attributes."""

    def with_attr(self, key: str | dict[str, Any], value: Any = None) -> "BaseFunc":
        """A copy with attribute ``key`` set (``BaseFunc.with_attr``); a dict sets several."""
        attrs = dict(self.attrs)
        attrs.update(key if isinstance(key, dict) else {key: value})
        return self.with_changes(attrs=attrs)

    def without_attr(self, key: str) -> "BaseFunc":
        """A copy with attribute ``key`` removed (``BaseFunc.without_attr``)."""
        attrs = {k: v for k, v in self.attrs.items() if k != key}
        return self.with_changes(attrs=attrs)


@node
class IRModule(BaseExpr):
    """A collection of functions by ``GlobalVar`` plus module attributes (``tvm.IRModule``).

    ``IRModule({"main": func})`` accepts names or GlobalVars as keys. ``mod["main"]`` looks a
    function up by name or GlobalVar (``KeyError`` naming the missing function otherwise).
    ``mod["f"] = func`` replaces or adds a function, as in TVM.
    """

    functions: Coerced[dict[GlobalVar, BaseFunc], Mapping[Any, BaseFunc]] = \
        coerced_field(default_factory=dict)
    attrs: AttrsField = coerced_field(default_factory=dict)

    def __post_init__(self) -> None:
        funcs: dict[GlobalVar, BaseFunc] = {}
        for key, func in dict(self.functions).items():
            gv = key if isinstance(key, GlobalVar) else GlobalVar(str(key))
            funcs[gv] = func
        object.__setattr__(self, "functions", funcs)
        object.__setattr__(self, "attrs", dict(self.attrs or {}))

    @staticmethod
    def from_expr(func: BaseFunc, name: str | None = None) -> "IRModule":
        """A module holding ``func`` as ``name`` (default: its ``global_symbol`` or ``"main"``)."""
        attrs = getattr(func, "attrs", {}) or {}
        return IRModule({name or attrs.get("global_symbol", "main"): func})

    def get_global_var(self, name: str) -> GlobalVar:
        """The GlobalVar named ``name`` (``IRModule.get_global_var``); ``KeyError`` if absent."""
        for gv in self.functions:
            if gv.name_hint == name:
                return gv
        names = ", ".join(sorted(g.name_hint for g in self.functions)) or "none"
        raise KeyError(f"IRModule has no function {name!r} (functions: {names})")

    def get_global_vars(self) -> list[GlobalVar]:
        """All GlobalVars, sorted by name."""
        return sorted(self.functions, key=lambda g: g.name_hint)

    def __getitem__(self, key: str | GlobalVar) -> BaseFunc:
        gv = key if isinstance(key, GlobalVar) else self.get_global_var(key)
        return self.functions[gv]

    def __setitem__(self, key: str | GlobalVar, func: BaseFunc) -> None:
        if isinstance(key, str):
            name = key
            try:
                key = self.get_global_var(name)
            except KeyError:
                key = GlobalVar(name)
        self.functions[key] = func

    def __contains__(self, key: object) -> bool:
        if isinstance(key, GlobalVar):
            return key in self.functions
        return any(g.name_hint == key for g in self.functions)

    def __iter__(self) -> Iterator[GlobalVar]:
        return iter(self.functions)

    def __len__(self) -> int:
        return len(self.functions)

    def items(self) -> list[tuple[GlobalVar, BaseFunc]]:
        """``(GlobalVar, function)`` pairs sorted by name."""
        return [(g, self.functions[g]) for g in self.get_global_vars()]

    def with_function(self, key: str | GlobalVar, func: BaseFunc) -> "IRModule":
        """A new module with ``func`` added or replaced under ``key`` (this one is unchanged)."""
        new = IRModule(dict(self.functions), dict(self.attrs), span=self.span)
        new[key] = func
        return new

    def with_attr(self, key: str, value: Any) -> "IRModule":
        """A copy with module attribute ``key`` set (``IRModule.with_attr``)."""
        return IRModule(dict(self.functions), {**self.attrs, key: value}, span=self.span)

    __hash__ = object.__hash__
