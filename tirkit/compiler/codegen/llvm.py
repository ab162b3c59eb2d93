"""LLVM code generation entry points (the counterpart of TVM's ``codegen.build_llvm``,
``LLVMModuleNode`` and ``CodeGenLLVM::Finish`` / ``Optimize``).

- :func:`emit_llvm` translates every PrimFunc of a fully lowered module to textual LLVM IR and
  verifies it (``llvmlite.binding.parse_assembly(...).verify()``);
- :func:`optimize` runs LLVM's new pass manager's ``default<O<level>>`` pipeline for the target,
  tuned as TVM's ``CodeGenLLVM::Optimize`` tunes it (:func:`pipeline_tuning_options`: loop
  vectorization, interleaving and unrolling on, SLP vectorization off);
- :func:`emit_assembly` / :func:`emit_object` produce ``.s`` text / ``.o`` bytes for any triple
  LLVM was built for (x86-64, aarch64... cross emission needs no cross toolchain).
"""
from __future__ import annotations

from typing import Any

import llvmlite.binding as llvm

from ...ir.module import IRModule
from ...tir.function import PrimFunc
from ..target import Target, initialize_llvm
# importing the rule modules fills the registration tables of .core
from . import casts, compute_scope, expr, intrin, memory, packed, parallel, stmt  # noqa: F401  pylint: disable=unused-import
from .core import CodeGenLLVM
from .functions import declare_function, emit_function
from .types import CodegenError
from .veclib import keep_variants
from .wrapper_split import split_text

__all__ = ["emit_llvm", "optimize", "emit_optimized", "optimized_module", "optimized_modules",
           "emit_assembly", "emit_object", "parse_and_verify",
           "pipeline_tuning_options", "PIPELINE_TUNING", "CodegenError"]


def _as_target(target: "Target | str | None") -> Target:
    return target if isinstance(target, Target) else Target.parse(target)


def _as_module(mod: "IRModule | PrimFunc") -> IRModule:
    if isinstance(mod, PrimFunc):
        return IRModule.from_expr(mod)
    if not isinstance(mod, IRModule):
        raise TypeError(f"expected an IRModule or PrimFunc, got {type(mod).__name__}")
    return mod


def _emit_text(mod: "IRModule | PrimFunc", target: "Target | str | None",
               module_name: str) -> str:
    return str(_emit_module(mod, target, module_name))


def _emit_module(mod: "IRModule | PrimFunc", target: "Target | str | None",
                 module_name: str) -> Any:
    """The llvmlite IR module of every PrimFunc of ``mod`` (not yet printed)."""
    target = _as_target(target)
    mod = _as_module(mod)
    cg = CodeGenLLVM(target, module_name)
    cg.module.data_layout = data_layout(target)
    funcs = [(gv, f) for gv, f in mod.functions.items() if isinstance(f, PrimFunc)]
    for gv, func in funcs:
        declare_function(cg, gv, func)
    for gv, func in funcs:
        try:
            emit_function(cg, gv, func)
        except CodegenError as exc:
            raise CodegenError(f"in function {gv.name_hint!r}: {exc}") from None
    keep_variants(cg.module)
    return cg.module


_LAYOUTS: dict[Target, str] = {}


def data_layout(target: Target) -> str:
    """LLVM's data layout string of ``target`` (memoized: a Target is immutable, and making the
    TargetMachine that knows it costs 0.2 ms)."""
    text = _LAYOUTS.get(target)
    if text is None:
        text = _LAYOUTS[target] = str(target.target_machine().target_data)
    return text


def emit_llvm(mod: "IRModule | PrimFunc", target: "Target | str | None" = None,
              module_name: str = "tirkit") -> str:
    """Textual LLVM IR of every PrimFunc of ``mod``, verified.

    Raises:
        CodegenError: for TIR the generator cannot translate (names the node and function) or
            IR that LLVM's verifier rejects (with LLVM's message).
    """
    text = _emit_text(mod, target, module_name)
    parse_and_verify(text)
    return text


def parse_and_verify(llvm_ir: str) -> Any:
    """Parse textual IR into an llvmlite ``ModuleRef`` and run LLVM's verifier.

    Raises:
        CodegenError: with LLVM's message when the IR does not parse or verify.
    """
    initialize_llvm()
    try:
        ref = llvm.parse_assembly(llvm_ir)
        ref.verify()
    except RuntimeError as exc:
        raise CodegenError(f"LLVM rejected the generated IR: {exc}") from None
    return ref


def optimize(llvm_ir: str, target: "Target | str | None" = None,
             opt_level: int | None = None) -> str:
    """Run LLVM's ``-O<level>`` module pipeline (new pass manager) for ``target``.

    ``opt_level`` defaults to ``target.opt_level``; the result is verified again.
    """
    target = _as_target(target)
    ref = parse_and_verify(llvm_ir)
    _run_passes(ref, target, target.opt_level if opt_level is None else opt_level)
    ref.verify()
    return str(ref)


#: the ``llvm::PipelineTuningOptions`` of every level: TVM's (``CodeGenLLVM::Optimize`` passes a
#: default-constructed one to its PassBuilder). SLP vectorization stays off as there: on the
#: seven bench kernels it changed no run time measurably and cost 1-4 ms of optimisation each.
PIPELINE_TUNING: dict[str, bool] = {
    "loop_vectorization": True,
    "loop_interleaving": True,
    "loop_unrolling": True,
    "slp_vectorization": False,
}


def pipeline_tuning_options(level: int) -> Any:
    """llvmlite ``PipelineTuningOptions`` for ``default<O<level>>`` (0..3) set as
    :data:`PIPELINE_TUNING` (mirrors TVM's ``CodeGenLLVM::Optimize``).

    Raises:
        ValueError: for a level outside 0..3.
    """
    if not 0 <= level <= 3:  # checked here: llvmlite's own check leaves a half-made object
        raise ValueError(f"LLVM optimisation level must be 0..3, got {level}")
    pto = llvm.create_pipeline_tuning_options(speed_level=level)
    for name, value in PIPELINE_TUNING.items():
        setattr(pto, name, value)
    return pto


def _run_passes(ref: Any, target: Target, level: int) -> None:
    tm = target.shared_target_machine(opt_level=level)
    ref.triple, ref.data_layout = target.triple, data_layout(target)
    pto = pipeline_tuning_options(level)
    pb = llvm.create_pass_builder(tm, pto)
    pb.getModulePassManager().run(ref, pb)


# Machine code is generated with LLVM's defaults, Loop Strength Reduction included. With LLVM 22
# ``-disable-lsr`` made MCJIT's code generation of the seven bench kernels 10-30% faster (conv2d
# 34 -> 24 ms, matmul_packed 39 -> 31), but matmul_packed's micro-kernel loop then recomputes its
# addresses (4 more instructions per k step) and ran 0.1-2.7% slower in single-thread A/Bs.


def emit_optimized(mod: "IRModule", target: Target) -> tuple[str, Any]:
    """``(text, module_ref)``: the IR of ``mod`` verified and optimised at ``target.opt_level``,
    parsed once (what :func:`emit_llvm` then :func:`optimize` give, without their two extra
    parses and verifications: LLVM's passes keep a verified module valid). The ``ModuleRef`` can
    go straight to the JIT (``JITModule(text, target, module_ref=ref)``).

    Raises:
        CodegenError: as :func:`emit_llvm`.
    """
    ref = optimized_module(mod, target)
    return str(ref), ref


def optimized_module(mod: "IRModule", target: Target) -> Any:
    """The ``ModuleRef`` of :func:`emit_optimized` without its text: printing an optimised
    module costs 0.5-1.5 ms that a JIT build does not need (``JITModule(None, target,
    module_ref=ref)``).

    Raises:
        CodegenError: as :func:`emit_llvm`.
    """
    target = _as_target(target)
    ref = parse_and_verify(_emit_text(mod, target, "tirkit"))
    _run_passes(ref, target, target.opt_level)
    return ref


def optimized_modules(mod: "IRModule", target: Target) -> tuple[Any, Any]:
    """``(optimised, wrappers)``: :func:`optimized_module`'s module without the packed wrappers
    (declared there), and a module of the wrappers alone (every other function declared) for
    code generation at ``-O0`` (:mod:`.wrapper_split`); ``wrappers`` is None when ``mod`` has
    none. What ``build`` hands the JIT: the two object files link there.

    Raises:
        CodegenError: as :func:`emit_llvm`.
    """
    target = _as_target(target)
    main, outer = split_text(_emit_module(mod, target, "tirkit"))
    ref = parse_and_verify(main)
    _run_passes(ref, target, target.opt_level)
    if outer is None:
        return ref, None
    wrapper_ref = parse_and_verify(outer)
    wrapper_ref.triple, wrapper_ref.data_layout = target.triple, data_layout(target)
    return ref, wrapper_ref


def _retarget(llvm_ir: str, target: Target) -> tuple[Any, Any]:
    ref = parse_and_verify(llvm_ir)
    tm = target.target_machine()
    ref.triple, ref.data_layout = target.triple, str(tm.target_data)
    return ref, tm


def emit_assembly(llvm_ir: str, target: "Target | str | None" = None) -> str:
    """Assembly text of ``llvm_ir`` for ``target`` (the IR's triple is replaced by the target's)."""
    ref, tm = _retarget(llvm_ir, _as_target(target))
    return tm.emit_assembly(ref)


def emit_object(llvm_ir: str, target: "Target | str | None" = None) -> bytes:
    """A relocatable object file (ELF/Mach-O/COFF per the triple) of ``llvm_ir`` for ``target``."""
    ref, tm = _retarget(llvm_ir, _as_target(target))
    return tm.emit_object(ref)
