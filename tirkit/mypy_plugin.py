"""mypy plugin for TVMScript files (no TVM counterpart): ``plugins = ["tirkit.mypy_plugin"]``.

It gives the annotation forms that TVMScript evaluates, and mypy cannot read, the type the parser
gives them (see docs/stubs.md for the measurements behind it):

- ``n: T.int32``, ``x: T.float32 = ...``, ``-> T.int32``, ``a: T.handle``: a dtype constructor
  used as an annotation is a scalar expression: ``PrimExpr | int`` (``| float`` for float
  dtypes, ``| bool`` for bool); ``T.handle``/``T.ptr`` a ``PrimExpr``
  (``a: T.handle = T.tvm_struct_get(...)``);
- ``A: T.Buffer[(128,), "float32"]`` (TVM's deprecated subscript form): a ``Buffer`` (the
  arguments are TVMScript expressions, not types, and are not analysed);
- ``for i in range(n)`` with a ``PrimExpr`` bound: ``i`` is a ``Var`` (a TVMScript serial loop).

The call form ``A: T.Buffer((128,), "float32")`` is rejected by mypy's parser before any plugin
runs; the documented configuration disables ``valid-type`` for TVMScript modules, which makes
such a parameter ``Any``.
"""
from __future__ import annotations

from typing import Callable

# mypy is compiled (mypyc): pylint cannot see the names of its modules
# pylint: disable=no-name-in-module
from mypy.nodes import TypeInfo
from mypy.plugin import AnalyzeTypeContext, FunctionContext, Plugin
from mypy.types import Instance, Type, UnionType, get_proper_type
# pylint: enable=no-name-in-module

#: modules whose names are the ``T`` namespace -> the module holding their stub types
NAMESPACES = {"tvm.script.tir": "tvm.script._types", "tvm.script.tirx": "tvm.script._types",
              "tirkit.lang.tir": "tirkit.lang._types"}
TYPES_MODULES = frozenset(NAMESPACES.values())


def _dtype_names() -> frozenset[str]:
    from tirkit.lang.ir_builder.tir_dtypes import DTYPE_FUNCS  # pylint: disable=import-outside-toplevel

    return frozenset(DTYPE_FUNCS) | {"bool", "boolean"}


DTYPES = _dtype_names()


def _scalar(types_module: str, dtype: str) -> Callable[[AnalyzeTypeContext], Type]:
    def hook(ctx: AnalyzeTypeContext) -> Type:
        api = ctx.api
        items: list[Type] = [api.named_type(f"{types_module}.PrimExpr", [])]
        if dtype.startswith(("int", "uint")):
            items.append(api.named_type("builtins.int", []))
        elif dtype.startswith(("float", "bfloat")):
            items.append(api.named_type("builtins.float", []))
        elif dtype in ("bool", "boolean"):
            items.append(api.named_type("builtins.bool", []))
        return UnionType.make_union(items)
    return hook


def _buffer(types_module: str) -> Callable[[AnalyzeTypeContext], Type]:
    def hook(ctx: AnalyzeTypeContext) -> Type:
        return ctx.api.named_type(f"{types_module}.Buffer", [])
    return hook


def _types_module(typ: Type) -> str | None:
    """The stub types module of a ``PrimExpr`` type (or a union holding one), else None."""
    typ = get_proper_type(typ)
    if isinstance(typ, UnionType):
        return next((m for m in map(_types_module, typ.items) if m), None)
    if not isinstance(typ, Instance):
        return None
    return next((base.module_name for base in typ.type.mro
                 if base.fullname.endswith("._types.PrimExpr")), None)


def _range(ctx: FunctionContext) -> Type:
    module = next((m for types in ctx.arg_types for t in types
                   if (m := _types_module(t)) is not None), None)
    if module is None:
        return ctx.default_return_type
    names = ctx.api.modules[module].names  # type: ignore[attr-defined]
    frame, var = names["ForFrame"].node, names["Var"].node
    if not (isinstance(frame, TypeInfo) and isinstance(var, TypeInfo)):
        return ctx.default_return_type
    return Instance(frame, [Instance(var, [])])


class TVMScriptPlugin(Plugin):
    """The plugin: type-analyze hooks for ``T.<dtype>`` and ``T.Buffer[...]`` annotations, a
    function hook for ``range`` over a ``PrimExpr``."""

    def get_type_analyze_hook(self, fullname: str
                              ) -> Callable[[AnalyzeTypeContext], Type] | None:
        """``T.<dtype>``/``T.handle`` of a T namespace and the stub ``Buffer`` class."""
        module, _, name = fullname.rpartition(".")
        if module in NAMESPACES and (name in DTYPES or name in ("handle", "ptr")):
            return _scalar(NAMESPACES[module], name)
        if module in TYPES_MODULES and name == "Buffer":
            return _buffer(module)
        return None

    def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        """``range(...)``."""
        return _range if fullname == "builtins.range" else None


def plugin(version: str) -> type[Plugin]:  # pylint: disable=unused-argument
    """mypy's entry point: the plugin class for any mypy version."""
    return TVMScriptPlugin
