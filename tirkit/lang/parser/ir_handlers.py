"""Handlers of the ``ir`` dialect: ``@I.ir_module class Module:`` (mirrors
``tvm.script.parser.ir.parser``)."""
from __future__ import annotations

from typing import Any

from ..ir_builder import ir_frames as IB
from .core import Parser
from .dispatch import register


class ModuleWithGlobalVars:
    """Stands for the module inside its own body: ``cls.f`` / ``Module.f`` give f's GlobalVar."""

    __tirkit_exact_errors__ = True

    def __init__(self, name: str) -> None:
        self._name = name
        self._gvars: dict[str, Any] = {}

    def __getattr__(self, name: str) -> Any:
        try:
            return self.__dict__["_gvars"][name]
        except KeyError:
            import difflib  # pylint: disable=import-outside-toplevel

            close = difflib.get_close_matches(name, list(self.__dict__["_gvars"]), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise AttributeError(f"module {self.__dict__['_name']!r} has no function "
                                 f"{name!r}{hint}") from None


@register("ir", "ClassDef")
def visit_class_def(self: Parser, node: Any) -> None:
    """An IRModule class: declare every function, then parse each method as a PrimFunc."""
    with self.table.frame(), IB.ir_module():
        fake = ModuleWithGlobalVars(node.name)
        self.table.add(node.name, fake)
        self.table.add("cls", fake)
        functions = [s for s in node.body if type(s).__name__ == "FunctionDef"]
        for stmt in functions:
            fake._gvars[stmt.name] = IB.decl_function(stmt.name)  # pylint: disable=protected-access
        seen: set[str] = set()
        for stmt in node.body:
            if type(stmt).__name__ == "FunctionDef":
                if stmt.name in seen:
                    self.report(_NameNode(stmt), f"duplicate function {stmt.name!r} in module "
                                f"{node.name!r}", code="duplicate")
                    continue
                seen.add(stmt.name)
                with self.with_token(self.function_token(stmt)):
                    self.visit(stmt)
            else:
                self.visit(stmt)


class _NameNode:
    """Stands for the name of a def/class (its ``name_span``) in a diagnostic."""

    def __init__(self, node: Any) -> None:
        self.span = getattr(node, "name_span", None) or getattr(node, "span", None)


@register("ir", "Expr")
def visit_expr(self: Parser, node: Any) -> None:
    """``I.module_attrs({...})`` and docstrings in a module body."""
    value: Any = getattr(node, "value", None)
    if type(value).__name__ == "Constant" and isinstance(value.value, str):
        return
    self.eval_expr(node.value)


@register("ir", "Pass")
def visit_pass(self: Parser, node: Any) -> None:
    """``pass`` in a module body."""
