"""Pass infrastructure (mirrors ``tvm.transform`` / ``tvm.tir.transform``): passes over an
``IRModule``, the ``PassContext`` they run in, and ``PassInstrument`` hooks.

A pass is an object with ``info`` (name, opt_level) called on an IRModule, returning a new one;
``prim_func_pass`` lifts a function over one ``PrimFunc`` to a module pass. Every pass module
under ``tirkit/compiler/passes/`` registers its constructor with :func:`register_pass`, so the
pipeline (``pipeline.py``) and the command line refer to passes by TVM's names.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

from tirkit.ir import IRModule
from tirkit.ir.deep import carry_thread_state, run_deep
from tirkit.tir import PrimFunc


class IllFormedIRError(ValueError):
    """The IR given to a pass breaks a precondition that holds for every IR TVMScript can
    express correctly (a buffer with 1 stride for 2 dimensions, a malformed ``buffer_dim_align``
    annotation): an error in the input, which ``tirc`` reports as such (exit 1), not as an
    internal error. TVM stops at an ``ICHECK`` in the same places."""


@dataclass(frozen=True)
class PassInfo:
    """Name and optimisation level of a pass (mirrors ``tvm.transform.PassInfo``)."""

    name: str
    opt_level: int = 0
    required: tuple[str, ...] = ()


class PassInstrument:
    """Hooks around every pass (mirrors ``tvm.instrument.PassInstrument``); subclass and override."""

    def enter_pass_ctx(self) -> None:
        """Called when a PassContext holding this instrument is entered."""

    def exit_pass_ctx(self) -> None:
        """Called when that PassContext is exited."""

    def should_run(self, mod: IRModule, info: PassInfo) -> bool:  # pylint: disable=unused-argument
        """Whether the pass runs (``True`` by default)."""
        return True

    def run_before_pass(self, mod: IRModule, info: PassInfo) -> None:
        """Called before a pass runs, with its input."""

    def run_after_pass(self, mod: IRModule, info: PassInfo) -> None:
        """Called after a pass ran, with its output."""


@dataclass
class PassContext:
    """Settings every pass reads (mirrors ``tvm.transform.PassContext``).

    ``opt_level`` gates passes (0..3); ``config`` holds TVM's option keys, e.g.
    ``"tir.instrument_bound_checkers"``, ``"tir.disable_vectorize"``, ``"tir.noalias"``,
    ``"tir.enable_debug"``; ``disabled_pass`` names passes to skip; ``instruments`` observe every
    pass. ``with PassContext(...):`` makes it current for this thread.
    """

    opt_level: int = 2
    config: dict[str, Any] = field(default_factory=dict)
    required_pass: Sequence[str] = ()
    disabled_pass: Sequence[str] = ()
    instruments: Sequence[PassInstrument] = ()

    _local = threading.local()

    def __enter__(self) -> "PassContext":
        stack = getattr(PassContext._local, "stack", None)
        if stack is None:
            stack = PassContext._local.stack = []
        stack.append(self)
        for inst in self.instruments:
            inst.enter_pass_ctx()
        return self

    def __exit__(self, *exc: Any) -> None:
        for inst in self.instruments:
            inst.exit_pass_ctx()
        PassContext._local.stack.pop()

    @staticmethod
    def current() -> "PassContext":
        """The innermost active context, or a default one (``PassContext.current``)."""
        stack = getattr(PassContext._local, "stack", None)
        return stack[-1] if stack else _DEFAULT

    def get(self, key: str, default: Any = None) -> Any:
        """A config value (``PassContext.config.get``)."""
        return self.config.get(key, default)


_DEFAULT = PassContext()


def _carry_pass_contexts() -> Callable[[], None]:
    """The ``with PassContext`` stack of this thread, for the deep IR worker to install (a deep
    pass or build runs there: tirkit.ir.deep)."""
    stack = list(getattr(PassContext._local, "stack", None) or ())

    def install() -> None:
        PassContext._local.stack = list(stack)
    return install


carry_thread_state(_carry_pass_contexts)


class Pass:
    """A transformation of an IRModule (mirrors ``tvm.transform.Pass``)."""

    def __init__(self, info: PassInfo, fn: Callable[[IRModule, PassContext], IRModule]) -> None:
        self.info, self._fn = info, fn

    @property
    def name(self) -> str:
        """The pass's TVM name, e.g. ``"LowerOpaqueBlock"``."""
        return self.info.name

    def __call__(self, mod: IRModule) -> IRModule:
        """Run on ``mod`` under the current PassContext, through its instruments; skipped (the
        module returned as is) when disabled, gated by ``opt_level`` or refused by an instrument."""
        ctx = PassContext.current()
        if self.info.name in ctx.disabled_pass:
            return mod
        if self.info.opt_level > ctx.opt_level and self.info.name not in ctx.required_pass:
            return mod
        if not all(inst.should_run(mod, self.info) for inst in ctx.instruments):
            return mod
        for inst in ctx.instruments:
            inst.run_before_pass(mod, self.info)
        out = run_deep(self._fn, mod, ctx, what=f"pass {self.info.name}")
        for inst in ctx.instruments:
            inst.run_after_pass(out, self.info)
        return out

    def __repr__(self) -> str:
        return f"Pass({self.info.name})"


def module_pass(name: str, opt_level: int = 0) -> Callable[[Callable[..., IRModule]], Pass]:
    """Make a module-level pass from ``fn(mod, ctx) -> IRModule`` (``tvm.transform.module_pass``)."""
    def deco(fn: Callable[..., IRModule]) -> Pass:
        return Pass(PassInfo(name, opt_level), fn)
    return deco


def prim_func_pass(name: str, opt_level: int = 0
                   ) -> Callable[[Callable[..., PrimFunc | None]], Pass]:
    """Make a pass from ``fn(func, mod, ctx) -> PrimFunc | None`` applied to every PrimFunc of the
    module (``tvm.tir.transform.prim_func_pass``); returning ``None`` removes the function, and
    returning the same object keeps the module unchanged (identity is preserved so instruments
    can tell that nothing changed)."""
    def deco(fn: Callable[..., PrimFunc | None]) -> Pass:
        def run(mod: IRModule, ctx: PassContext) -> IRModule:
            funcs, changed = {}, False
            for gv, func in mod.functions.items():
                new = fn(func, mod, ctx) if isinstance(func, PrimFunc) else func
                changed |= new is not func
                if new is not None:
                    funcs[gv] = new
            return IRModule(funcs, mod.attrs, span=mod.span) if changed else mod
        return Pass(PassInfo(name, opt_level), run)
    return deco


class Sequential(Pass):
    """Run passes in order (mirrors ``tvm.transform.Sequential``)."""

    def __init__(self, passes: Iterable[Pass], name: str = "Sequential", opt_level: int = 0):
        self.passes = list(passes)
        super().__init__(PassInfo(name, opt_level), self._run)

    def _run(self, mod: IRModule, ctx: PassContext) -> IRModule:
        del ctx
        for p in self.passes:
            mod = p(mod)
        return mod


_PASSES: dict[str, Callable[..., Pass]] = {}


def register_pass(name: str) -> Callable[[Callable[..., Pass]], Callable[..., Pass]]:
    """Register a pass constructor under its TVM name (``tvm.tir.transform.<name>``)."""
    def deco(ctor: Callable[..., Pass]) -> Callable[..., Pass]:
        _PASSES[name] = ctor
        return ctor
    return deco


#: tirkit.compiler.passes (whose modules register the passes) once imported
_PASSES_LOADED: list[Any] = []


def get_pass(name: str, **kwargs: Any) -> Pass:
    """A new instance of the registered pass ``name``.

    Raises:
        KeyError: naming the unknown pass and the closest registered names.
    """
    if not _PASSES_LOADED:  # the import statement once: it costs a call into importlib
        from . import passes  # pylint: disable=import-outside-toplevel

        _PASSES_LOADED.append(passes)
    try:
        return _PASSES[name](**kwargs)
    except KeyError:
        import difflib  # pylint: disable=import-outside-toplevel

        close = difflib.get_close_matches(name, list(_PASSES), n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise KeyError(f"unknown pass {name!r}{hint}") from None


def list_passes() -> list[str]:
    """Names of every registered pass, sorted."""
    from . import passes  # noqa: F401  pylint: disable=import-outside-toplevel,unused-import

    return sorted(_PASSES)


def as_module(node: Any) -> IRModule:
    """An IRModule holding ``node`` (a PrimFunc becomes ``{"main" or its global_symbol: f}``)."""
    if isinstance(node, IRModule):
        return node
    if isinstance(node, PrimFunc):
        return IRModule.from_expr(node)
    raise TypeError(f"expected a PrimFunc or IRModule, got {type(node).__name__}")
