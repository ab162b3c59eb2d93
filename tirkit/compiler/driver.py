"""The compiler driver: TIR -> lowered TIR -> LLVM IR -> JIT-compiled runtime Module (mirrors
``tvm.lower`` and ``tvm.build`` / ``tvm.compile`` for the ``llvm`` target).

    lowered = lower(func)                       # IRModule after the whole PIPELINE
    lowered = lower(func, until="FlattenBuffer")  # ... or after any stage
    mod = build(func)                           # runtime Module; mod["main"](a, b, c)
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Sequence

from tirkit.ir import IRModule

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
    return run_pipeline(mod_or_func, opt_level=opt_level, config=config, until=until,
                        instruments=instruments)[-1].mod


def as_target(target: Any, opt_level: int = 2) -> Any:
    """A :class:`~tirkit.compiler.target.Target` from a TVM target string (``"llvm"``,
    ``"llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a72"``) or a Target, with ``opt_level``."""
    from .target import Target  # pylint: disable=import-outside-toplevel

    tgt = target if isinstance(target, Target) else Target.parse(target or "llvm")
    return dataclasses.replace(tgt, opt_level=opt_level)


@dataclass
class Compiled:
    """What :func:`compile_module` produced: the lowered module, every stage, the target and the
    optimised LLVM IR (no TVM counterpart; ``tvm.build``'s intermediate state)."""

    stages: list[StageResult]
    target: Any
    llvm_ir: str
    ptx: str = ""  # cuda targets: the PTX of the kernels (llvm_ir is then their NVPTX IR)

    @property
    def lowered(self) -> IRModule:
        """The IR after the last pipeline stage."""
        return self.stages[-1].mod


def compile_module(mod_or_func: Any, target: Any = "llvm", opt_level: int = 2,
                   config: dict[str, Any] | None = None,
                   instruments: Sequence[PassInstrument] = ()) -> Compiled:
    """Lower ``mod_or_func`` through the whole pipeline, emit LLVM IR for ``target`` and optimise
    it at ``opt_level`` (llvmlite's new pass manager)."""
    from .codegen.llvm import emit_llvm, optimize  # pylint: disable=import-outside-toplevel

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
    llvm_ir = optimize(emit_llvm(stages[-1].mod, tgt), tgt)
    return Compiled(stages, tgt, llvm_ir)


_GPU_THREAD_ATTRS = ("thread_extent", "virtual_thread")


def _check_no_gpu_threads(mod: IRModule) -> None:
    """A CPU target cannot run GPU thread bindings: name the function and the threads, and say
    how to compile it for a GPU (instead of the code generator's scope error).

    Raises:
        CodegenError: for the first function that launches GPU threads.
    """
    from tirkit.tir import stmt as S  # pylint: disable=import-outside-toplevel
    from tirkit.tir.function import PrimFunc  # pylint: disable=import-outside-toplevel
    from tirkit.tir.stmt_functor import post_order_visit  # pylint: disable=import-outside-toplevel

    from .codegen.types import CodegenError  # pylint: disable=import-outside-toplevel

    for gv, func in mod.functions.items():
        if not isinstance(func, PrimFunc):
            continue
        tags: list[str] = []

        def visit(node: Any, tags: list[str] = tags) -> None:
            if isinstance(node, S.AttrStmt) and node.attr_key in _GPU_THREAD_ATTRS:
                tag = getattr(node.node, "thread_tag", "") or node.attr_key
                if tag not in tags:
                    tags.append(tag)

        post_order_visit(func.body, visit)
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

    compiled = compile_module(mod_or_func, target, opt_level, config, instruments)
    if compiled.target.kind == "cuda":
        from .runtime.cuda_module import CUDAModule  # pylint: disable=import-outside-toplevel

        return CUDAModule(compiled.lowered, compiled.ptx, source=compiled.stages[0].mod)
    jit = JITModule(compiled.llvm_ir, compiled.target)
    return Module(compiled.lowered, jit, source=compiled.stages[0].mod)
