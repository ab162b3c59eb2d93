"""PTX from a module lowered for ``cuda`` (mirrors ``codegen.build_cuda`` with TVM's NVPTX
path, ``BuildNVPTX`` in src/target/llvm/codegen_nvptx.cc):

1. :func:`~.nvptx.emit_nvptx_llvm` translates the device functions and LLVM verifies them;
2. when they call libdevice (``__nv_*`` math), ``libdevice.10.bc`` is linked in, its functions
   made internal (unused ones are dropped) and ``nvvm-reflect-ftz`` set to 0 (IEEE denormals);
3. LLVM's ``default<O<level>>`` pipeline, tuned as TVM's
   (:func:`~.llvm.pipeline_tuning_options`), runs for ``nvptx64-nvidia-cuda`` and the ``sm_XX`` CPU;
4. the NVPTX back end prints PTX (``.version``/``.target sm_XX``), which the CUDA driver loads
   (``cuModuleLoadData``) and ptxas assembles (:func:`~.cuda_toolkit.ptxas_validate`).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import llvmlite.binding as llvm

from ...ir.module import IRModule
from ..target import Target, initialize_llvm
from .cuda_toolkit import find_libdevice
from . import nvptx_intrin  # noqa: F401  pylint: disable=unused-import  # fills the rule tables
from .llvm import parse_and_verify, pipeline_tuning_options
from .nvptx import emit_nvptx_llvm, is_kernel
from .types import CodegenError

__all__ = ["PTXResult", "build_ptx", "kernel_names"]

_REFLECT_FTZ = '\n!llvm.module.flags = !{!9000}\n!9000 = !{i32 4, !"nvvm-reflect-ftz", i32 0}\n'


@dataclass(frozen=True)
class PTXResult:
    """What :func:`build_ptx` produced: the unoptimised and optimised LLVM IR, the PTX text and
    the architecture it is for."""

    llvm_ir: str
    optimized_ir: str
    ptx: str
    arch: str


def kernel_names(mod: IRModule) -> list[str]:
    """The global symbols of the kernels of a lowered module."""
    from ...tir.function import PrimFunc  # pylint: disable=import-outside-toplevel

    return [str(f.attrs.get("global_symbol") or gv.name_hint) for gv, f in mod.functions.items()
            if isinstance(f, PrimFunc) and is_kernel(f)]


def _link_libdevice(ref: Any, keep: set[str]) -> None:
    path = find_libdevice()
    if path is None:
        raise CodegenError("libdevice.10.bc not found (pip install 'tirkit[gpu]')")
    lib = llvm.parse_bitcode(Path(path).read_bytes())
    lib.triple, lib.data_layout = ref.triple, ref.data_layout
    ref.link_in(lib)
    for fn in ref.functions:
        if not fn.is_declaration and fn.name not in keep:
            fn.linkage = "internal"


def build_ptx(mod: IRModule, target: "Target | str" = "cuda",
              opt_level: int | None = None) -> PTXResult:
    """PTX of the device functions of ``mod`` (a module after the whole pipeline for
    ``cuda``).

    Raises:
        CodegenError: untranslatable device code, IR LLVM rejects, or math that needs a
            missing libdevice.
    """
    initialize_llvm()
    tgt = target if isinstance(target, Target) else Target.parse(target)
    if not tgt.is_gpu:
        raise CodegenError(f"build_ptx needs a cuda target, got {tgt}")
    level = tgt.opt_level if opt_level is None else opt_level
    text, libdevice = emit_nvptx_llvm(mod, tgt)
    ref = parse_and_verify(text + (_REFLECT_FTZ if libdevice else ""))
    tm = tgt.target_machine(opt_level=level)
    ref.triple, ref.data_layout = tgt.triple, str(tm.target_data)
    if libdevice:
        _link_libdevice(ref, set(kernel_names(mod)))
    pb = llvm.create_pass_builder(tm, pipeline_tuning_options(level))
    pb.getModulePassManager().run(ref, pb)
    try:
        ref.verify()
    except RuntimeError as exc:
        raise CodegenError(f"LLVM rejected the optimised NVPTX IR: {exc}") from None
    optimized = str(ref)
    try:
        ptx = tm.emit_assembly(ref)
    except RuntimeError as exc:
        raise CodegenError(f"the NVPTX back end failed: {exc}") from None
    return PTXResult(text, optimized, ptx, tgt.mcpu)
