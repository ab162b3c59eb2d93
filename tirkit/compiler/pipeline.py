"""THE lowering pipeline: one ordered list of named stages, read top to bottom (mirrors TVM
v0.20's ``tvm.tir.pipeline.default_tir_pipeline`` followed by ``finalize_host_passes``,
restricted to what matters on CPU and CUDA targets; Halide's ``Lower.cpp`` has the same shape).

Stages are gated by the target kind (the ``"tirkit.target"`` config key, a target string such as
``"cuda -arch=sm_80"``; ``llvm`` when absent): the GPU stages (device/host split, thread syncs,
cross-thread reductions, warp memory) run for ``cuda`` only; the CPU host stages (MakePackedAPI,
LowerTVMBuiltin, LowerIntrin) for ``llvm`` only — on ``cuda`` the host function stays a plain
PrimFunc whose kernel launches the CUDA runtime performs, and the NVPTX code generator lowers
math itself (libdevice).

Each :class:`Stage` names a pass registered under its TVM name (``tirkit/compiler/passes/``),
with its ``-O`` gate (``min_opt_level``) and its config switch (``enabled``) inline. The options
a pass takes are read from the current :class:`~tirkit.compiler.transform.PassContext` when the
stage makes its pass, so ``PassContext(config={"tir.disable_vectorize": True})`` works as in TVM.

:func:`run_pipeline` runs the stages under one ``PassContext`` whose instruments include a
:class:`~tirkit.compiler.instrument.StageRecorder`; the recorder's records are the result, one
:class:`StageResult` per stage (``"Input"`` first). The same recorder drives ``tirc
--print-after-all``, ``--dump-dir`` and the language server's previews.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from .instrument import StageRecorder
from .stage_result import PipelineError, StageResult
from .transform import Pass, PassContext, PassInstrument, as_module, get_pass, list_passes


@dataclass(frozen=True)
class Stage:
    """One named step of the pipeline: ``make()`` builds its pass (called inside the pipeline's
    PassContext); it runs when ``opt_level >= min_opt_level`` and ``enabled(ctx)`` (if given).
    ``target`` (``"llvm"`` / ``"cuda"``) restricts it to one target kind: for another kind the
    stage is not part of the pipeline at all (not run, not recorded)."""

    name: str
    make: Callable[[], Pass]
    min_opt_level: int = 0
    enabled: Callable[[PassContext], bool] | None = None
    target: str | None = None


def _cfg(key: str, default: Any = False) -> Any:
    """A config value of the current PassContext (TVM's ``pass_ctx.config.get(key, default)``)."""
    return PassContext.current().get(key, default)


def _on(key: str) -> Callable[[PassContext], bool]:
    return lambda ctx: bool(ctx.get(key, False))


def _off(key: str) -> Callable[[PassContext], bool]:
    return lambda ctx: not bool(ctx.get(key, False))


def target_kind(ctx: PassContext) -> str:
    """The kind (``llvm`` / ``cuda``) of the target the pipeline compiles for."""
    text = str(ctx.get("tirkit.target", "") or "llvm").strip()
    head = text.split()[0] if text else "llvm"
    return "cuda" if head.startswith(("cuda", "nvptx")) else "llvm"


_GPU, _CPU = "cuda", "llvm"


def _pass(name: str, **options: Callable[[], Any]) -> Callable[[], Pass]:
    """``make`` for the registered pass ``name``; each option is computed when the pass is made."""
    return lambda: get_pass(name, **{key: value() for key, value in options.items()})


# The pipeline, in order. TVM's VTCM-, tensor-core- and async-only passes are left out.
PIPELINE: list[Stage] = [
    # --- loops from 0 by 1 (TVM 0.27's s_tir pipeline starts so: no later stage sees a step)
    Stage("CanonicalizeLoop", _pass("CanonicalizeLoop")),
    # --- reductions bound to GPU threads -> tvm_thread_allreduce (cuda only; before LowerInitBlock)
    Stage("LowerCrossThreadReduction", _pass("LowerCrossThreadReduction"), target=_GPU),
    # --- TensorIR blocks to loops over flat buffers (tvm.tir.pipeline, first half)
    Stage("LowerInitBlock", _pass("LowerInitBlock")),
    Stage("PlanAndUpdateBufferAllocationLocation", _pass("PlanAndUpdateBufferAllocationLocation")),
    Stage("ConvertBlocksToOpaque", _pass("ConvertBlocksToOpaque")),
    Stage("CompactBufferAllocation", _pass("CompactBufferAllocation")),
    Stage("LowerMatchBuffer", _pass("LowerMatchBuffer")),
    Stage("Simplify", _pass("Simplify")),
    Stage("LowerOpaqueBlock", _pass("LowerOpaqueBlock")),
    Stage("FlattenBuffer", _pass("FlattenBuffer")),
    # --- loop-level optimisation
    Stage("NarrowDataType", _pass("NarrowDataType", target_bits=lambda: 32), min_opt_level=1),
    Stage("LoopPartition", _pass("LoopPartition"), min_opt_level=2),
    # always runs: with tir.disable_vectorize it turns vectorized loops into serial ones
    Stage("VectorizeLoop", _pass("VectorizeLoop",
                                 enable_vectorize=lambda: not _cfg("tir.disable_vectorize"))),
    Stage("InjectVirtualThread", _pass("InjectVirtualThread"), target=_GPU),
    Stage("StorageRewrite", _pass("StorageRewrite"), min_opt_level=1,
          enabled=_off("tir.disable_storage_rewrite")),
    Stage("UnrollLoop", _pass("UnrollLoop")),
    Stage("Simplify", _pass("Simplify")),
    Stage("RemoveNoOp", _pass("RemoveNoOp")),
    Stage("RewriteUnsafeSelect", _pass("RewriteUnsafeSelect")),
    Stage("InstrumentBoundCheckers", _pass("InstrumentBoundCheckers"),
          enabled=_on("tir.instrument_bound_checkers"), target=_CPU),
    Stage("CommonSubexprElimTIR", _pass("CommonSubexprElimTIR"), min_opt_level=2,
          enabled=_off("tir.disable_cse_tir")),
    # tirkit's own: independent reduction chains side by side (bitwise the same results); after
    # CSE so that CSE does not search the copies (it took conv2d's lowering from 19 to 38 ms)
    Stage("UnrollAndJam", _pass("UnrollAndJam"), min_opt_level=2, target=_CPU,
          enabled=_off("tirkit.disable_unroll_and_jam")),
    # --- GPU: synchronisation, cross-thread reductions, device/host split (cuda only)
    Stage("ThreadSync", _pass("ThreadSync", storage_scope=lambda: "shared"), target=_GPU),
    Stage("ThreadSync", _pass("ThreadSync", storage_scope=lambda: "shared.dyn"), target=_GPU),
    Stage("LowerThreadAllreduce", _pass("LowerThreadAllreduce"), target=_GPU),
    Stage("AnnotateDeviceRegions", _pass("AnnotateDeviceRegions",
                                         target=lambda: _cfg("tirkit.target", "")), target=_GPU),
    Stage("SplitHostDevice", _pass("SplitHostDevice"), target=_GPU),
    Stage("MergeSharedMemoryAllocations", _pass("MergeSharedMemoryAllocations"), target=_GPU),
    Stage("ConvertSSA", _pass("ConvertSSA")),
    # --- host code: TVM's packed calling convention, builtins and intrinsics (CPU)
    Stage("MakePackedAPI", _pass("MakePackedAPI"), target=_CPU),
    Stage("LowerDeviceKernelLaunch", _pass("LowerDeviceKernelLaunch"), target=_GPU),
    Stage("LowerTVMBuiltin", _pass("LowerTVMBuiltin"), target=_CPU),
    Stage("LowerIntrin", _pass("LowerIntrin"), target=_CPU),
    # --- device code (tvm.tir.pipeline.finalize_device_passes; cuda only)
    Stage("LowerWarpMemory", _pass("LowerWarpMemory"), target=_GPU),
    Stage("Simplify", _pass("Simplify"), target=_GPU),
]


def stage_names() -> list[str]:
    """The pipeline's stage names in order (a name appears once per occurrence)."""
    return [stage.name for stage in PIPELINE]


def missing_passes(stages: Sequence[Stage] = ()) -> list[str]:
    """Names of pipeline stages whose pass is not registered (empty when the pipeline is whole)."""
    registered = set(list_passes())
    return sorted({s.name for s in (stages or PIPELINE)} - registered)


def resolve_until(until: str | int | None) -> int:
    """Index in :data:`PIPELINE` of the last stage to run: ``None`` is the whole pipeline; a name
    means its first occurrence, ``"Simplify#2"`` the second; ``"Input"`` means no stage (-1).

    Raises:
        PipelineError: naming the unknown stage and the known names.
    """
    names = stage_names()
    if until is None:
        return len(names) - 1
    if isinstance(until, int):
        if not -1 <= until < len(names):
            raise PipelineError(f"stage index {until} out of range [-1, {len(names)})")
        return until
    if until == "Input":
        return -1
    name, _, nth = until.partition("#")
    hits = [i for i, n in enumerate(names) if n == name]
    count = int(nth) if nth.isdigit() else 1
    if not hits or count < 1 or count > len(hits) or (nth and not nth.isdigit()):
        known = ", ".join(dict.fromkeys(names))
        raise PipelineError(f"unknown pipeline stage {until!r}; stages: Input, {known} "
                            "(a repeated stage as Name#2)")
    return hits[count - 1]


def run_pipeline(mod: Any, *, opt_level: int = 2, config: dict[str, Any] | None = None,
                 until: str | int | None = None,
                 instruments: Sequence[PassInstrument] = ()) -> list[StageResult]:
    """Run :data:`PIPELINE` on ``mod`` (an IRModule or PrimFunc) and return the IR after every
    stage, ``"Input"`` first (TVM: ``tvm.tir.build``'s pipeline under a ``PassContext`` with
    instruments). ``until`` stops after that stage (see :func:`resolve_until`).

    A :class:`~tirkit.compiler.instrument.StageRecorder` among ``instruments`` is used for the
    records (so its observers print / dump / verify / time); otherwise a plain one is added.

    Raises:
        PipelineError: when a stage to run has no registered pass (naming it) or ``until`` is
            unknown. Exceptions raised by passes propagate unchanged.
    """

    kind = target_kind(PassContext(config=dict(config or {})))
    stages = [s for s in PIPELINE[:resolve_until(until) + 1] if s.target in (None, kind)]
    missing = missing_passes(stages) if stages else []
    if missing:
        raise PipelineError(f"pipeline stage(s) without a registered pass: {', '.join(missing)} "
                            "(no module in tirkit/compiler/passes/ registers them)")
    recorders = [i for i in instruments if isinstance(i, StageRecorder)]
    recorder = recorders[0] if recorders else StageRecorder()
    insts = list(instruments) if recorders else [recorder, *instruments]
    mod = as_module(mod)
    with PassContext(opt_level=opt_level, config=dict(config or {}), instruments=insts) as ctx:
        recorder.start(mod)
        for stage in stages:
            if stage.min_opt_level > opt_level or (stage.enabled and not stage.enabled(ctx)):
                recorder.skip(stage.name, mod)
                continue
            recorder.expect(stage.name)
            mod = stage.make()(mod)
            recorder.settle(mod)
    return recorder.results
