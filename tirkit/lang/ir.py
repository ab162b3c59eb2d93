"""The ``I`` namespace: ``from tirkit.lang import ir as I`` (mirrors ``tvm.script.ir``)."""
from __future__ import annotations

from typing import Any

from tirkit import _layers

from .ir_builder.ir_frames import decl_function, module_attrs  # noqa: F401


def ir_module(cls: Any = None, *, check_well_formed: bool = True) -> Any:
    """Decorator parsing a class as an IRModule when Python runs it (decorator mode; mirrors
    ``tvm.script.ir_module``).

    Raises:
        tirkit.ir.diagnostics.DiagnosticError: with every diagnostic of the class.
    """
    del check_well_formed

    def decorate(c: Any) -> Any:
        # tirkit.lang.entry.parse_python_class (entry imports this namespace); called from here
        # as before: it reads the class's defining scope three frames up
        return _layers.get("parse_python_class")(c)

    return decorate(cls) if cls is not None else decorate
