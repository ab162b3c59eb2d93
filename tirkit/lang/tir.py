"""The ``T`` namespace: ``from tirkit.lang import tir as T`` (mirrors ``tvm.script.tir``).

Every public name is defined or imported explicitly (no ``__getattr__`` tricks), so static tools
can read it. Inside a parsed function these are the IRBuilder functions; ``@T.prim_func`` parses
the decorated function when Python runs it (decorator mode).
"""
# pylint: disable=redefined-builtin,unused-import,invalid-name
from __future__ import annotations

from typing import Any, Callable

from tirkit import tir as _tir
from tirkit.ir.dtype import DataType

from .ir_builder.tir_api import (alloc_buffer, arg, axis, block, block_attr, buffer, func_attr,
                                 func_name, func_ret, init, match_buffer, reads, where, writes)
from .ir_builder.tir_dtypes import *  # noqa: F401,F403  (int8 ... float64x64, handle, ptr, void)
from .ir_builder.tir_dtypes import boolean, handle, ptr, void
from .ir_builder.tir_stmts import (Assert, Else, If, LetStmt, Then, While, allocate,
                                   allocate_const, attr, buffer_store, decl_buffer, env_thread,
                                   evaluate, grid, launch_thread, parallel, prefetch, realize,
                                   serial, thread_binding, unroll, vectorized)
from .parser.tir_handlers import MetaVar as meta_var

# expressions and intrinsics (tirkit.tir op functions and node constructors)
from tirkit.tir import (Add, And, Broadcast, BufferLoad, BufferRegion, Call, CallEffectKind, Cast,
                        CommReducer, Div, EQ, FloatImm, FloorDiv, FloorMod, GE, GT, IntImm,
                        IterVar, LE, LT, Let, Max, Min, Mod, Mul, NE, Not, Or, Ramp, Reduce, Select,
                        Shuffle, StringImm, Sub, Var)
from tirkit.tir import (abs, address_of, assume, atan2, call_cpacked, call_extern, call_intrin,
                        call_llvm_intrin, call_llvm_pure_intrin, call_packed, call_pure_extern,
                        call_pure_intrin, ceil, clz, comm_reducer, copysign, erf, exp, exp2, exp10,
                        floor, fmod, hypot, if_then_else, infinity, isfinite, isinf, isnan,
                        isnullptr, ldexp, likely, log, log1p, log2, log10, lookup_param, max_value,
                        min_value, nearbyint, nextafter, popcount, pow, q_multiply_shift,
                        reinterpret, ret, round, rsqrt, sigmoid, sqrt, tan, tanh, cos, cosh, acos,
                        acosh, sin, sinh, asin, asinh, atan, atanh, trunc, truncdiv, truncmod,
                        tvm_access_ptr, tvm_stack_alloca, tvm_stack_make_array,
                        tvm_stack_make_shape, tvm_struct_get, tvm_struct_set,
                        tvm_throw_last_error, type_annotation, undef, vectorcombine, vectorhigh,
                        vectorlow)
from tirkit.tir import floordiv, floormod  # noqa: F401

bool = boolean  # noqa: A001  (``T.bool``)


def _binary_node(cls: type) -> Callable[[Any, Any], Any]:
    def build(a: Any, b: Any) -> Any:
        x, y = _tir.convert_pair(a, b)
        return cls(x, y)
    build.__name__ = cls.__name__.lower()
    build.__doc__ = f"``T.{cls.__name__.lower()}(a, b)``: a ``{cls.__name__}`` node (TVM's T.{cls.__name__.lower()})."
    return build


min = _binary_node(Min)
max = _binary_node(Max)


class _BufferProxy:
    """``T.Buffer``: ``T.Buffer((128, 128), "float32")`` and the old ``T.Buffer[(128,), "float32"]``
    (mirrors TVM's ``BufferProxy``)."""

    def __call__(self, shape: Any, dtype: Any = "float32", data: Any = None, strides: Any = None,
                 elem_offset: Any = None, scope: str = "global", align: int = 0,
                 offset_factor: int = 0, buffer_type: str = "", axis_separators: Any = None
                 ) -> _tir.Buffer:
        return buffer(shape, dtype, data, strides, elem_offset, scope, align, offset_factor,
                      buffer_type, axis_separators)

    def __getitem__(self, keys: Any) -> _tir.Buffer:
        if not isinstance(keys, tuple) or not keys:
            keys = (keys,)
        if len(keys) > 1 and isinstance(keys[0], (tuple, list)):
            return self(keys[0], *keys[1:])
        return self(keys)


Buffer = _BufferProxy()


def sblock(name: str = "", no_realize: bool = False) -> Any:
    """tirx spelling of :func:`block` (TVM 0.27 ``T.sblock``)."""
    return block(name, no_realize)


def sblock_attr(attrs: dict[str, Any]) -> None:
    """tirx spelling of :func:`block_attr` (TVM 0.27 ``T.sblock_attr``)."""
    block_attr(attrs)


def target(value: Any, host: Any = None) -> dict[str, Any]:
    """A target description for ``T.func_attr({"target": T.target("llvm")})`` (``T.target``);
    kept as a dict (tirkit has no Target objects)."""
    t = {"kind": value} if isinstance(value, str) else dict(value)
    if host is not None:
        t["host"] = host
    return t


def let(v: Any, value: Any, body: Any) -> Any:
    """``T.let(v, value, body)``: a ``Let`` expression (TVM's ``T.let``)."""
    return Let(v, value, body)


def prim_func(func: Any = None, *, private: bool = False, s_tir: bool = False,
              check_well_formed: bool = True) -> Any:
    """Decorator parsing a Python function as a PrimFunc when Python runs it (decorator mode;
    mirrors ``tvm.script.tir.prim_func``). Expressions see the function's globals and closure
    (seed 001 F1/F4).

    Raises:
        tirkit.ir.diagnostics.DiagnosticError: with every diagnostic of the function.
    """
    del s_tir, check_well_formed

    def decorate(fn: Any) -> Any:
        from .entry import parse_python_function  # pylint: disable=import-outside-toplevel

        return parse_python_function(fn, private=private)

    return decorate(func) if func is not None else decorate
