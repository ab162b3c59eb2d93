"""Vector variants of libm calls from glibc's libmvec (what ``clang -fveclib=libmvec`` gives; no
TVM counterpart: TVM's ``llvm.exp`` of a vectorized loop is scalarized into one ``expf`` call per
lane).

When LLVM's loop vectorizer widens a loop that calls ``llvm.exp.f32``, the back end splits the
vector ``llvm.exp.v8f32`` into eight calls of libm's ``expf``. On x86-64 GNU/Linux, glibc ships
vector versions (``_ZGVdN8v_expf``: eight floats in a 256-bit register; ``b`` SSE2, ``d`` AVX2,
``e`` AVX-512F; libmvec, which ``-lm`` links as needed). Each call of a listed intrinsic carries
the call-site attribute ``"vector-function-abi-variant"`` naming the variants the target's
features allow (LLVM's ``VFABI`` mangling, ``_ZGV_LLVM_N8v_llvm.exp.f32(_ZGVdN8v_expf)``), and the
module declares them (kept in ``@llvm.compiler.used``), so the vectorizer calls them instead. Only the functions of
:data:`LIBMVEC` and only for ``x86_64-*-linux-gnu`` targets; on the host only when libmvec is
installed (the JIT loads it, ``runtime.jit.load_libmvec``).

Accuracy: glibc documents at most 4 ulp for these (its scalar ``expf`` 1); on softmax rows of
1024 float32 the outputs moved by at most 2.4e-7 relative. Measured on the bench's softmax
(4096 x 1024, 2 threads): the normalising loop's ``exp`` 12.6 -> 8.7 ms per call.
"""
from __future__ import annotations

import ctypes.util
import functools
from typing import Any

from llvmlite import ir


__all__ = ["LIBMVEC", "call_libm", "variant_attribute", "vector_variant", "libmvec_available",
           "keep_variants"]

#: intrinsic (without its type suffix) -> libm's name of the float32 version (float64: no "f")
LIBMVEC: dict[str, str] = {"llvm.exp": "expf", "llvm.log": "logf", "llvm.sin": "sinf",
                           "llvm.cos": "cosf"}

# the x86 vector ABI's ISA letters, the feature each needs and its register width in bits
_ISAS = (("b", "", 128), ("d", "+avx2", 256), ("e", "+avx512f", 512))


@functools.cache
def libmvec_available() -> bool:
    """Whether this machine has glibc's libmvec (``libmvec.so.1``)."""
    return bool(ctypes.util.find_library("mvec"))


def _applies(triple: str, is_host: bool) -> bool:
    arch, *rest = triple.split("-")
    return arch == "x86_64" and rest[-1:] == ["gnu"] and "linux" in rest and \
        (libmvec_available() or not is_host)


def _variants(target: object, intrinsic: str, elem: ir.Type) -> list[tuple[int, str]]:
    """``(lanes, vector function name)`` of each variant of ``intrinsic`` on ``elem`` scalars that
    ``target`` may call (none off x86-64 GNU/Linux, without libmvec on the host, or for a
    function or type libmvec lacks)."""
    scalar = LIBMVEC.get(intrinsic)
    if scalar is None or not isinstance(elem, (ir.FloatType, ir.DoubleType)) or \
            not _applies(getattr(target, "triple", ""), bool(getattr(target, "is_host", False))):
        return []
    is_float = isinstance(elem, ir.FloatType)
    name, bits = (scalar, 32) if is_float else (scalar[:-1], 64)
    features = str(getattr(target, "features", "")).split(",")
    return [(width // bits, f"_ZGV{isa}N{width // bits}v_{name}")
            for isa, need, width in _ISAS if not need or need in features]


def _declare(module: ir.Module, name: str, vty: ir.VectorType) -> ir.Function:
    fn = module.globals.get(name)
    if not isinstance(fn, ir.Function):
        fn = ir.Function(module, ir.FunctionType(vty, [vty]), name=name)
    return fn


def vector_variant(target: object, intrinsic: str, vty: ir.Type,
                   module: ir.Module) -> ir.Function | None:
    """The libmvec function to call for ``intrinsic`` on a whole vector of type ``vty`` (an
    explicitly vectorized ``T.exp``), declared in ``module``; None where no variant has exactly
    ``vty``'s lanes."""
    if not isinstance(vty, ir.VectorType):
        return None
    for lanes, vector in _variants(target, intrinsic, vty.element):
        if lanes == vty.count:
            return _declare(module, vector, vty)
    return None


def variant_attribute(target: object, intrinsic: str, elem: ir.Type,
                      module: ir.Module) -> str:
    """The call-site attribute text (`` "vector-function-abi-variant"="..."``) for a call of
    ``intrinsic`` (e.g. ``llvm.exp``) on scalars of type ``elem`` (float or double), declaring
    the vector functions it names in ``module``; ``""`` where none applies."""
    suffix = "f32" if isinstance(elem, ir.FloatType) else "f64"
    parts = []
    for lanes, vector in _variants(target, intrinsic, elem):
        _declare(module, vector, ir.VectorType(elem, lanes))
        parts.append(f"_ZGV_LLVM_N{lanes}v_{intrinsic}.{suffix}({vector})")
    return f' "vector-function-abi-variant"="{",".join(parts)}"' if parts else ""


def call_libm(cg: Any, intrinsic: str, fn: ir.Function, args: list[ir.Value]) -> ir.Value:
    """``cg``'s call of ``fn`` (the declared ``intrinsic``, e.g. ``llvm.exp.f32``) on ``args``:
    a call of libmvec's function when the call is on a whole vector it has a variant for, else
    the call with the variants' attribute (none for functions libmvec lacks)."""
    ret = fn.function_type.return_type
    whole = vector_variant(cg.target, intrinsic, ret, cg.module)
    if whole is not None:
        return cg.builder.call(whole, args)
    call = cg.builder.call(fn, args)
    if intrinsic in LIBMVEC and not isinstance(ret, ir.VectorType):
        call.fn_attr_text = variant_attribute(cg.target, intrinsic, ret, cg.module)
    return call


def keep_variants(module: ir.Module) -> None:
    """List the declared vector variants in ``@llvm.compiler.used``: no instruction calls them
    before the vectorizer does, and LLVM drops unused declarations first (GlobalDCE)."""
    names = sorted(n for n, g in module.globals.items()
                   if n.startswith("_ZGV") and isinstance(g, ir.Function))
    if not names:
        return
    ptr = ir.PointerType()
    used = ir.GlobalVariable(module, ir.ArrayType(ptr, len(names)), "llvm.compiler.used")
    used.linkage, used.section = "appending", "llvm.metadata"
    used.initializer = ir.Constant(ir.ArrayType(ptr, len(names)),
                                   [module.globals[n] for n in names])
