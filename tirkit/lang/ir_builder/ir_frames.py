"""Frames of the IRModule builder (mirrors ``tvm.script.ir_builder.ir``)."""
from __future__ import annotations

from typing import Any

from tirkit.ir import GlobalVar, IRModule

from .base import IRBuilder, IRBuilderFrame


class IRModuleFrame(IRBuilderFrame):
    """Builds an ``IRModule`` (``IRModuleFrame``): functions declared first (so methods can call
    each other as ``cls.f``), defined as their frames exit, plus module attrs."""

    def __init__(self) -> None:
        super().__init__()
        self.global_vars: dict[str, GlobalVar] = {}
        self.functions: dict[GlobalVar, Any] = {}
        self.attrs: dict[str, Any] = {}

    def decl_function(self, name: str) -> GlobalVar:
        """Declare ``name`` and return its GlobalVar (``decl_function``)."""
        return self.global_vars.setdefault(name, GlobalVar(name))

    def add_function(self, name: str, func: Any) -> None:
        """Define ``name`` as ``func`` (``def_function``)."""
        self.functions[self.decl_function(name)] = func

    def exit(self) -> None:
        IRBuilder.current().set_result(IRModule(self.functions, self.attrs, span=self.span))


def ir_module() -> IRModuleFrame:
    """Start an IRModule (mirrors ``tvm.script.ir_builder.ir.ir_module``)."""
    return IRModuleFrame()


def decl_function(name: str) -> GlobalVar:
    """Declare a function of the current module (``I.decl_function``).

    Raises:
        RuntimeError: outside an ``ir_module`` frame.
    """
    frame = IRBuilder.current().find_frame(IRModuleFrame)
    if frame is None:
        raise RuntimeError("decl_function must be called inside an ir_module frame")
    return frame.decl_function(name)


def module_attrs(attrs: dict[str, Any]) -> None:
    """Set the current module's attributes (mirrors ``I.module_attrs``).

    Raises:
        RuntimeError: outside an ``ir_module`` frame.
    """
    frame = IRBuilder.current().find_frame(IRModuleFrame)
    if frame is None:
        raise RuntimeError("I.module_attrs must be called inside an ir_module")
    frame.attrs.update(attrs)
