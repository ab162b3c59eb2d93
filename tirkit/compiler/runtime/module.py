"""A compiled module's callable functions (mirrors ``tvm.runtime.Module``): ``module["name"](*args)``
and, for a module with a single function, ``module(*args)``.

The packed functions (those ``MakePackedAPI`` gave ``calling_conv`` 1) are looked up by their
global symbol in the JIT engine; their argument signature is read back from the lowered IR
(:meth:`~tirkit.compiler.runtime.packed.FuncSpec.from_packed`), or taken from the PrimFuncs of
the module before lowering when ``source`` is given.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Callable

from tirkit.ir import IRModule
from tirkit.tir import PrimFunc

from .abi import CallingConv
from .access import written_args
from .packed import FuncSpec, PackedFunction

__all__ = ["Module"]


def _symbol(gv: Any, func: PrimFunc) -> str:
    sym = func.attrs.get("global_symbol")
    return str(getattr(sym, "value", sym)) if sym is not None else gv.name_hint


def _is_packed(func: PrimFunc) -> bool:
    conv: Any = func.attrs.get("calling_conv", 0)
    return int(getattr(conv, "value", conv)) == CallingConv.kCPackedFunc


class Module:
    """The externally visible functions of a compiled module (``tvm.runtime.Module``).

    Args:
        lowered: the IRModule after the pipeline (packed functions made by MakePackedAPI).
        jit: the engine holding the code: an object with ``get_function_address(name)``
            (``tirkit.compiler.runtime.jit.JITModule``); kept alive by this Module.
        source: optionally the module before lowering; its PrimFuncs' ``buffer_map`` gives the
            argument signatures (otherwise they are read from the lowered unpacking code).
    """

    def __init__(self, lowered: IRModule | None, jit: Any, source: IRModule | None = None,
                 *, specs: dict[str, FuncSpec] | None = None,
                 relower: Callable[[], IRModule] | None = None) -> None:
        self._lowered = lowered
        self._relower = relower
        self.jit = jit
        self._cache: dict[str, PackedFunction] = {}
        if specs is not None:  # loaded from the compile cache
            self._specs = dict(specs)
            return
        assert lowered is not None
        self._specs = {}
        originals = {}
        if source is not None:
            originals = {_symbol(gv, f): f for gv, f in source.functions.items()
                         if isinstance(f, PrimFunc)}
        for gv, func in lowered.functions.items():
            if isinstance(func, PrimFunc) and _is_packed(func):
                name = _symbol(gv, func)
                orig = originals.get(name)
                spec = (FuncSpec.from_prim_func(orig, name) if orig is not None
                        else FuncSpec.from_packed(func, name))
                self._specs[name] = dataclasses.replace(spec, written=written_args(func))

    @property
    def lowered(self) -> IRModule:
        """The IRModule after the pipeline (for a module loaded from the compile cache, lowered
        again when first asked for)."""
        if self._lowered is None and self._relower is not None:
            self._lowered = self._relower()
        assert self._lowered is not None
        return self._lowered

    @property
    def specs(self) -> dict[str, FuncSpec]:
        """The signature of every callable function, by name."""
        return dict(self._specs)

    @property
    def function_names(self) -> list[str]:
        """The names of the callable (packed) functions, in module order."""
        return list(self._specs)

    def get_function(self, name: str) -> PackedFunction:
        """The packed function ``name`` (``Module.get_function``).

        Raises:
            KeyError: naming the unknown function and the functions the module has.
        """
        if name not in self._specs:
            raise KeyError(f"the module has no function {name!r} (functions: "
                           f"{', '.join(self._specs) or 'none'})")
        if name not in self._cache:
            self._cache[name] = PackedFunction(self.jit.get_function_address(name),
                                               self._specs[name], owner=self)
        return self._cache[name]

    def __getitem__(self, name: str) -> PackedFunction:
        return self.get_function(name)

    def __contains__(self, name: object) -> bool:
        return name in self._specs

    def __call__(self, *args: Any) -> Any:
        """Call the module's only function.

        Raises:
            TypeError: when the module has several functions (naming them) or none.
        """
        if len(self._specs) != 1:
            raise TypeError(f"module(*args) needs a module with exactly one function, this one "
                            f"has {len(self._specs)} ({', '.join(self._specs) or 'none'}); use "
                            "module[name](*args)")
        return self.get_function(next(iter(self._specs)))(*args)

    def __repr__(self) -> str:
        return f"Module({', '.join(self._specs)})"
