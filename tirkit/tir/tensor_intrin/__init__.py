"""Tensor intrinsics: the ``TensorIntrin`` registry (mirrors ``tvm.tir.TensorIntrin`` of
``python/tvm/tir/function.py``) and, in submodules, the registered intrinsics (mirrors the
``tvm.tir.tensor_intrin`` package: one module per target family, registering on import).

A tensor intrinsic is a pair of PrimFuncs over the same handle parameters: ``desc`` describes
the computation as ordinary TensorIR (what ``Schedule.tensorize`` matches a block against) and
``impl`` is the code that replaces it. The intrinsic modules are written in TVMScript and so
import ``tirkit.lang``; they are loaded on first use by :meth:`TensorIntrin.get` (or imported
explicitly, as in TVM), never by ``import tirkit.tir``.
"""
from __future__ import annotations

import importlib

from ..function import PrimFunc

_REGISTRY: dict[str, "TensorIntrin"] = {}
_BUILTIN_MODULES = ("tirkit.tir.tensor_intrin.cpu",)
_loaded: list[bool] = []


class TensorIntrin:
    """A tensor intrinsic: ``desc`` and ``impl`` PrimFuncs (mirrors ``tvm.tir.TensorIntrin``).

    Raises:
        ValueError: when ``desc`` and ``impl`` differ in their number of parameters or in the
            number of buffers they bind, or when a parameter is not a handle (TVM's checks).
    """

    __slots__ = ("desc", "impl")

    def __init__(self, desc: PrimFunc, impl: PrimFunc) -> None:
        if len(desc.params) != len(impl.params):
            raise ValueError("The number of parameters of the description and the implementation "
                             "of the tensor intrinsic doesn't match.")
        for which, func in (("description", desc), ("implementation", impl)):
            if any(not p.dtype.is_handle() for p in func.params):
                raise ValueError(f"Parameters of the {which} of the tensor intrinsic should be "
                                 "handle only.")
        if len(desc.buffer_map) != len(impl.buffer_map):
            raise ValueError("The description and the implementation of the tensor intrinsic "
                             "bind different numbers of buffers.")
        self.desc = desc
        self.impl = impl

    def __repr__(self) -> str:
        return f"TensorIntrin(desc={self.desc.attrs.get('global_symbol', '?')!r}, " \
               f"impl={self.impl.attrs.get('global_symbol', '?')!r})"

    @staticmethod
    def register(name: str, desc: PrimFunc, impl: PrimFunc, override: bool = False) -> None:
        """Register ``TensorIntrin(desc, impl)`` under ``name`` (``TensorIntrin.register``).

        Raises:
            ValueError: when ``name`` is taken and ``override`` is False, or as the constructor.
        """
        if not override and name in _REGISTRY:
            raise ValueError(f"TensorIntrin '{name}' has already been registered")
        _REGISTRY[name] = TensorIntrin(desc, impl)

    @staticmethod
    def get(name: str, allow_missing: bool = False) -> "TensorIntrin | None":
        """The intrinsic registered as ``name`` (``TensorIntrin.get``); the built-in intrinsic
        modules are loaded on the first miss.

        Raises:
            ValueError: when no intrinsic has that name and ``allow_missing`` is False.
        """
        if name not in _REGISTRY and not _loaded:
            _loaded.append(True)
            for module in _BUILTIN_MODULES:
                importlib.import_module(module)
        hit = _REGISTRY.get(name)
        if hit is None and not allow_missing:
            known = ", ".join(sorted(_REGISTRY)) or "none"
            raise ValueError(f"TensorIntrin '{name}' is not registered (registered: {known})")
        return hit


def list_registered() -> list[str]:
    """Names of the registered intrinsics, sorted (no TVM counterpart; TVM keeps its registry
    private)."""
    return sorted(_REGISTRY)
