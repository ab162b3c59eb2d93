"""Target attribute values: the config dict of ``T.target(...)`` (mirrors ``tvm.target.Target``
as an IR attribute; code generation uses :class:`tirkit.compiler.target.Target`)."""
from __future__ import annotations

from typing import Any

__all__ = ["TargetConfig"]


class TargetConfig(dict):
    """A target in an attribute, ``T.func_attr({"target": T.target("llvm")})`` or
    ``T.attr(T.target("cuda"), "target", 0)``: its config dict (``{"kind": "llvm"}``, with
    ``"host"`` when given), mirroring ``tvm.target.Target`` (TVM 0.27 keeps a ``Target``
    object, which its tirx printer writes back as ``T.target({...})``; tirkit keeps the config
    as written, without the defaults TVM fills in).

    A dict in every way (equal to, and structurally equal to, the plain dict with the same
    items; the classic printer writes it as one, as tirkit always has); the tirx printer writes
    it as ``T.target(...)``, so TVM 0.27 reads a ``Target`` back.
    """

    __slots__ = ()

    @staticmethod
    def make(value: Any, host: Any = None) -> "TargetConfig":
        """``T.target(value, host)``: a kind or tag string (``"llvm"``) is ``{"kind": value}``,
        a dict is copied; ``host`` is stored under ``"host"`` (mirrors
        ``tvm.target.Target(target, host)``)."""
        config = TargetConfig({"kind": value} if isinstance(value, str) else dict(value))
        if host is not None:
            config["host"] = host
        return config

    def script_args(self) -> tuple[list[Any], list[tuple[str, Any]]]:
        """The arguments of ``T.target(...)`` that give this config back: the kind string alone
        when that is all there is, with ``host=`` when there is a host too (a tag such as
        ``"nvidia/nvidia-a100"`` must stay a string for TVM), else the dict (mirrors
        ``tvm.target.Target(target, host)``)."""
        kind = self.get("kind")
        if isinstance(kind, str) and set(self) <= {"kind", "host"}:
            return [kind], [("host", self["host"])] if "host" in self else []
        return [dict(self)], []
