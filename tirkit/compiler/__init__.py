"""The compiler: TIR lowering passes, the pipeline, LLVM code generation through llvmlite and a JIT
runtime (mirrors ``tvm.tir.transform``, ``tvm.build`` / ``tvm.compile`` and ``tvm.runtime``).

``build(func)`` returns a runtime Module, ``lower(func, until=stage)`` the IR at any stage of
``PIPELINE`` (pipeline.py, THE ordered stage list); ``run_pipeline`` returns every stage.
"""
from .driver import build, compile_module, lower
from .pipeline import PIPELINE, PipelineError, Stage, StageResult, run_pipeline
from .transform import (Pass, PassContext, PassInfo, PassInstrument, Sequential, get_pass,
                        list_passes, module_pass, prim_func_pass, register_pass)

__all__ = ["Pass", "PassContext", "PassInfo", "PassInstrument", "Sequential", "get_pass",
           "list_passes", "module_pass", "prim_func_pass", "register_pass",
           "build", "compile_module", "lower", "PIPELINE", "PipelineError", "Stage", "StageResult",
           "run_pipeline"]
