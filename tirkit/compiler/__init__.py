"""The compiler: TIR lowering passes, the pipeline, LLVM code generation through llvmlite and a JIT
runtime (mirrors ``tvm.tir.transform``, ``tvm.build`` / ``tvm.compile`` and ``tvm.runtime``)."""
from .transform import (Pass, PassContext, PassInfo, PassInstrument, Sequential, get_pass,
                        list_passes, module_pass, prim_func_pass, register_pass)

__all__ = ["Pass", "PassContext", "PassInfo", "PassInstrument", "Sequential", "get_pass",
           "list_passes", "module_pass", "prim_func_pass", "register_pass"]
