"""LLVM code generation through llvmlite (mirrors TVM's ``src/target/llvm``): see
:mod:`.llvm` for the entry points and :mod:`.core` for how translation rules are organised."""
from .llvm import CodegenError, emit_assembly, emit_llvm, emit_object, optimize, parse_and_verify

__all__ = ["CodegenError", "emit_assembly", "emit_llvm", "emit_object", "optimize",
           "parse_and_verify"]
