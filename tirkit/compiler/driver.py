"""The compiler driver: TIR -> lowered TIR -> LLVM IR -> JIT-compiled runtime Module (mirrors
``tvm.lower`` and ``tvm.build`` / ``tvm.compile`` for the ``llvm`` target).

    lowered = lower(func)                       # IRModule after the whole PIPELINE
    lowered = lower(func, until="FlattenBuffer")  # ... or after any stage
    mod = build(func)                           # runtime Module; mod["main"](a, b, c)
"""
from __future__ import annotations

import contextlib
import dataclasses
import gc
from dataclasses import dataclass
from typing import Any, Iterator, Sequence

from tirkit.ir import IRModule
from tirkit.ir.deep import run_deep
from tirkit.tir import PrimFunc

from .pipeline import StageResult, run_pipeline
from .transform import PassInstrument


def lower(mod_or_func: Any, until: str | int | None = None, opt_level: int = 2,
          config: dict[str, Any] | None = None,
          instruments: Sequence[PassInstrument] = ()) -> IRModule:
    """The IR of ``mod_or_func`` (PrimFunc or IRModule) after the pipeline stage ``until``
    (default: all of them; ``"Input"``, a stage name, ``"Simplify#2"`` or an index), mirroring
    ``tvm.lower``.

    Raises:
        PipelineError: unknown stage, or a stage whose pass is not registered.
    """
    return run_deep(run_pipeline, mod_or_func, opt_level=opt_level, config=config, until=until,
                    instruments=instruments, what="lower")[-1].mod


def as_target(target: Any, opt_level: int = 2) -> Any:
    """A :class:`~tirkit.compiler.target.Target` from a TVM target string (``"llvm"``,
    ``"llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a72"``) or a Target, with ``opt_level``."""
    from .target import Target  # pylint: disable=import-outside-toplevel

    if not isinstance(target, (str, type(None))):
        given = target if isinstance(target, Target) else Target.parse(target)
        return dataclasses.replace(given, opt_level=opt_level)
    key = (target or "llvm", opt_level)
    tgt = _TARGETS.get(key)  # a Target is immutable; parsing one checks the triple with LLVM
    if tgt is None:
        tgt = _TARGETS[key] = dataclasses.replace(Target.parse(key[0]), opt_level=opt_level)
    return tgt


_TARGETS: dict[tuple[str, int], Any] = {}


@dataclass
class Compiled:
    """What :func:`compile_module` produced: the lowered module, every stage, the target and the
    optimised LLVM IR (no TVM counterpart; ``tvm.build``'s intermediate state)."""

    stages: list[StageResult]
    target: Any
    #: the optimised IR's text; None until :attr:`llvm_ir` is first read (printed from
    #: ``module_ref`` then: a JIT build never needs it)
    text: str | None = dataclasses.field(default=None, repr=False)
    ptx: str = ""  # cuda targets: the PTX of the kernels (llvm_ir is then their NVPTX IR)
    #: llvmlite's parsed, optimised module (CPU targets), handed to the JIT once by ``build``
    module_ref: Any = dataclasses.field(default=None, repr=False, compare=False)
    #: ``build`` only: the packed wrappers, in a module of their own for code generation at
    #: -O0 (``codegen.llvm.optimized_modules``; ``module_ref`` then declares them)
    wrapper_ref: Any = dataclasses.field(default=None, repr=False, compare=False)

    @property
    def lowered(self) -> IRModule:
        """The IR after the last pipeline stage."""
        return self.stages[-1].mod

    @property
    def llvm_ir(self) -> str:
        """The optimised LLVM IR (NVPTX IR for cuda targets) as text.

        Raises:
            ValueError: when it was never printed and ``build`` gave its module to the JIT.
        """
        if self.text is None:
            if self.module_ref is None:
                raise ValueError("the optimised module went to the JIT unprinted")
            self.text = str(self.module_ref)
        return self.text


def compile_module(mod_or_func: Any, target: Any = "llvm", opt_level: int = 2,
                   config: dict[str, Any] | None = None,
                   instruments: Sequence[PassInstrument] = ()) -> Compiled:
    """Lower ``mod_or_func`` through the whole pipeline, emit LLVM IR for ``target`` and optimise
    it at ``opt_level`` (llvmlite's new pass manager)."""
    return _compile(mod_or_func, target, opt_level, config, instruments, split=False)


def _compile(mod_or_func: Any, target: Any, opt_level: int, config: dict[str, Any] | None,
             instruments: Sequence[PassInstrument], split: bool) -> Compiled:
    """:func:`compile_module`; with ``split`` (a host build for the JIT), the packed wrappers go
    to ``wrapper_ref`` (two object files; see ``codegen.wrapper_split``)."""
    with gc_paused():  # the IR visitors recurse along LetStmt chains (CSE of unrolled bodies
        # makes them deep): deep IR compiles on the deep worker (tirkit.ir.deep)
        return run_deep(_compile_module, mod_or_func, target, opt_level, config, instruments,
                        split, what="build")


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off for the duration (restored after, even on error).

    A compile allocates hundreds of thousands of short-lived IR and llvmlite objects; each
    generation-2 collection they trigger walks the whole heap (every imported module's objects)
    and costs 5-12% of a build. Reference counting still frees everything acyclic at once; the
    few cycles (llvmlite's parent links) are collected after, when the collector runs again."""
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def _compile_module(mod_or_func: Any, target: Any, opt_level: int,
                    config: dict[str, Any] | None,
                    instruments: Sequence[PassInstrument], split: bool = False) -> Compiled:
    # pylint: disable-next=import-outside-toplevel
    from .codegen.llvm import optimized_module, optimized_modules

    tgt = as_target(target, opt_level)
    cfg = dict(config or {})
    if tgt.kind != "llvm":
        cfg.setdefault("tirkit.target", str(tgt))
    stages = run_pipeline(mod_or_func, opt_level=opt_level, config=cfg, instruments=instruments)
    if tgt.kind == "cuda":
        from .codegen.nvptx_emit import build_ptx  # pylint: disable=import-outside-toplevel

        result = build_ptx(stages[-1].mod, tgt)
        return Compiled(stages, tgt, result.optimized_ir, result.ptx)
    _check_no_gpu_threads(stages[-1].mod)
    if split and tgt.is_host:
        ref, wrapper_ref = optimized_modules(stages[-1].mod, tgt)
        return Compiled(stages, tgt, module_ref=ref, wrapper_ref=wrapper_ref)
    return Compiled(stages, tgt, module_ref=optimized_module(stages[-1].mod, tgt))


_GPU_THREAD_ATTRS = ("thread_extent", "virtual_thread")


def _check_no_gpu_threads(mod: IRModule) -> None:
    """A CPU target cannot run GPU thread bindings: name the function and the threads, and say
    how to compile it for a GPU (instead of the code generator's scope error).

    Raises:
        CodegenError: for the first function that launches GPU threads.
    """
    from tirkit.tir import stmt as S  # pylint: disable=import-outside-toplevel
    from tirkit.tir.function import PrimFunc  # pylint: disable=import-outside-toplevel
    from tirkit.ir.expr import PrimExpr  # pylint: disable=import-outside-toplevel
    from tirkit.tir.stmt_functor import pre_order_visit  # pylint: disable=import-outside-toplevel

    from .codegen.types import CodegenError  # pylint: disable=import-outside-toplevel

    for gv, func in mod.functions.items():
        if not isinstance(func, PrimFunc):
            continue
        tags: list[str] = []

        def visit(node: Any, tags: list[str] = tags) -> bool:
            if isinstance(node, PrimExpr):
                return False  # thread bindings are statements: the expressions are not walked
            if isinstance(node, S.AttrStmt) and node.attr_key in _GPU_THREAD_ATTRS:
                tag = getattr(node.node, "thread_tag", "") or node.attr_key
                if tag not in tags:
                    tags.append(tag)
            return True

        pre_order_visit(func.body, visit)
        if tags:
            raise CodegenError(
                f"function {gv.name_hint!r} launches GPU threads ({', '.join(sorted(tags))}): "
                "the CPU target cannot run it; compile it for a GPU with target='cuda' (tirc "
                "--target cuda)")


def build(mod_or_func: Any, target: Any = "llvm", opt_level: int = 2,
          config: dict[str, Any] | None = None,
          instruments: Sequence[PassInstrument] = ()) -> Any:
    """Compile ``mod_or_func`` and load it into this process (mirrors ``tvm.build(mod,
    target="llvm")``): a runtime ``Module`` whose functions take NumPy / DLPack arrays,
    ``module["name"](*args)`` or ``module(*args)`` for a single function.

    ``target`` must be the host (a JIT runs here) or ``"cuda"`` (``"cuda -arch=sm_80"``...):
    then the kernels are compiled to PTX and the result is a
    :class:`~tirkit.compiler.runtime.cuda_module.CUDAModule` that takes NumPy arrays (copied)
    and CUDA device arrays (zero copy), and raises ``CudaUnavailable`` when called on a machine
    without a GPU. Use :func:`compile_module` plus ``codegen.llvm.emit_object`` to
    cross-compile.
    """
    from .runtime.jit import JITModule  # pylint: disable=import-outside-toplevel
    from .runtime.module import Module  # pylint: disable=import-outside-toplevel

    key = None
    if not instruments:  # instruments want to see the passes run: no cache then
        key, module = _cached_build(mod_or_func, target, opt_level, config)
        if module is not None:
            return module
    compiled = _compile(mod_or_func, target, opt_level, config, instruments, split=True)
    if compiled.target.kind == "cuda":
        from .runtime.cuda_module import CUDAModule  # pylint: disable=import-outside-toplevel

        return CUDAModule(compiled.lowered, compiled.ptx, source=compiled.stages[0].mod)
    # the JIT engine takes the modules over
    (ref, wrappers), compiled.module_ref, compiled.wrapper_ref = \
        (compiled.module_ref, compiled.wrapper_ref), None, None
    jit = JITModule(compiled.text, compiled.target, module_ref=ref, wrapper_ref=wrappers)
    module = Module(compiled.lowered, jit, source=compiled.stages[0].mod)
    if key is not None and jit.object_code is not None:
        from . import cache  # pylint: disable=import-outside-toplevel

        written = {name: sorted(spec.written) if spec.written is not None else None
                   for name, spec in module.specs.items()}
        cache.store(key, cache.CacheEntry(jit.object_code, written, tuple(jit.extra_objects)))
    return module


def _cached_build(mod_or_func: Any, target: Any, opt_level: int,
                  config: dict[str, Any] | None) -> tuple[str | None, Any]:
    """``(key, module)``: the module loaded from the persistent compile cache (None on a miss)
    and the key to store a fresh build under (None when the cache is off)."""
    from . import cache  # pylint: disable=import-outside-toplevel

    if cache.cache_dir() is None:
        return None, None
    with gc_paused():  # a cyclic collection over a large heap costs more than the whole lookup
        return _lookup(cache, mod_or_func, target, opt_level, config)


def _lookup(cache: Any, mod_or_func: Any, target: Any, opt_level: int,
            config: dict[str, Any] | None) -> tuple[str | None, Any]:
    # pylint: disable=import-outside-toplevel
    from .runtime.jit import JITModule
    from .runtime.module import Module
    from .runtime.packed import FuncSpec
    from .transform import as_module

    mod = as_module(mod_or_func)
    tgt = as_target(target, opt_level)
    if not tgt.is_host:
        return None, None
    key = cache.cache_key(mod, tgt, opt_level, dict(config or {}))
    entry = cache.load(key)
    if entry is None:
        return key, None
    funcs = {_symbol(gv, f): f for gv, f in mod.functions.items() if isinstance(f, PrimFunc)}
    if not set(entry.functions) <= set(funcs):
        return key, None
    specs = {name: dataclasses.replace(
        FuncSpec.from_prim_func(funcs[name], name),
        written=frozenset(w) if w is not None else None) for name, w in entry.functions.items()}
    jit = JITModule.from_object(entry.obj, list(entry.functions), tgt, entry.extra)
    return key, Module(None, jit, specs=specs,
                       relower=lambda: lower(mod, opt_level=opt_level, config=config))


def _symbol(gv: Any, func: Any) -> str:
    sym = func.attrs.get("global_symbol")
    return str(getattr(sym, "value", sym)) if sym is not None else gv.name_hint
