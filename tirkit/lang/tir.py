"""The ``T`` namespace: ``from tirkit.lang import tir as T`` (mirrors ``tvm.script.tir``).

Every public name is defined or imported explicitly (no ``__getattr__`` tricks), so static tools
can read it. Inside a parsed function these are the IRBuilder functions; ``@T.prim_func`` parses
the decorated function when Python runs it (decorator mode).
"""
# pylint: disable=redefined-builtin,unused-import,invalid-name
from __future__ import annotations

from typing import Any, Callable

from tirkit import _layers, tir as _tir
from tirkit.ir import Range
from tirkit.ir.target import TargetConfig as _TargetConfig
from tirkit.ir.dtype import DataType

from .ir_builder.tir_api import (alloc_buffer, arg, axis, block, block_attr, buffer, func_attr,
                                 func_name, func_ret, init, match_buffer, reads, where, writes)
from .ir_builder.tir_dtypes import *  # noqa: F401,F403  (int8 ... float64x64, handle, ptr, void)
from .ir_builder.tir_dtypes import boolean, handle, ptr, void
from .ir_builder.tir_stmts import (Assert, Else, If, LetStmt, Then, While, allocate,
                                   allocate_const, attr, buffer_store, decl_buffer, env_thread,
                                   evaluate, grid, iter_var, launch_thread, parallel, prefetch,
                                   realize, serial, thread_binding, unroll, vectorized)
from .ir_builder.tir_compute import compute, reduce_axis
from .parser.macro import macro
from .parser.tir_handlers import MetaVar as meta_var

# intrinsics: every op function of tirkit.tir (explicit ``__all__`` lists, statically readable)
from tirkit.tir.op_intrin import *  # noqa: F401,F403
from tirkit.tir.op_math import *  # noqa: F401,F403
from tirkit.tir.op_math import pow, round, sum  # noqa: F401
# node constructors and the op functions TVMScript spells with T.
from tirkit.tir import (Add, And, Broadcast, BufferLoad, BufferRegion, Call, CallEffectKind, Cast,
                        CommReducer, Div, EQ, FloatImm, FloorDiv, FloorMod, GE, GT, IntImm,
                        IterVar, LE, LT, Max, Min, Mod, Mul, NE, Not, Or, Ramp, Reduce, Select,
                        Shuffle, StringImm, Sub, Var)
from tirkit.tir import (abs, bitwise_and, bitwise_not, bitwise_or, bitwise_xor, floordiv, floormod,
                        shift_left, shift_right, truncdiv, truncmod)
# TVM's calling conventions of the same op functions: ``dtype=`` keywords (ir_builder.tir.ir)
from .ir_builder.tir_ops import *  # noqa: F401,F403
from .ir_builder.tir_ops import abs, pow, round, op_wrapper as _op_wrapper  # noqa: F401

bool = boolean  # noqa: A001  (``T.bool``)


def comm_reducer(combiner: Callable[..., Any], identity: Any, name: str = "reduce") -> Any:
    """``T.comm_reducer(lambda x, y: x + y, [T.float32(0)])``: a ``CommReducer`` whose vars are
    named after the lambda's parameters (mirrors ``tvm.script.ir_builder.tir.comm_reducer``).
    With a callable ``identity`` it is ``tvm.tir.comm_reducer`` (a TE reducer function).

    Raises:
        TypeError: when the lambda does not take two parameters per identity element.
    """
    if callable(identity):
        return _tir.comm_reducer(combiner, identity, name)
    names = getattr(combiner, "__tirkit_params__", None)
    if names is None:
        import inspect  # pylint: disable=import-outside-toplevel

        names = tuple(inspect.signature(combiner).parameters)
    ident = [_tir.convert(i) for i in (identity if isinstance(identity, (list, tuple))
                                       else [identity])]
    if len(names) != 2 * len(ident):
        raise TypeError(f"T.comm_reducer: the combiner takes {len(names)} parameter(s); "
                        f"expected {2 * len(ident)} (two per identity element)")
    args = [Var(n, i.dtype) for n, i in zip(names, ident + ident)]
    res = combiner(*args)
    res = tuple(res) if isinstance(res, (tuple, list)) else (res,)
    half = len(names) // 2
    reducer = CommReducer(tuple(args[:half]), tuple(args[half:]), res, tuple(ident))
    from tirkit.ir.node import fill_missing_spans  # pylint: disable=import-outside-toplevel
    from .ir_builder.base import IRBuilder  # pylint: disable=import-outside-toplevel

    if IRBuilder.is_in_scope():  # the vars' types get the statement's span (contract 3)
        fill_missing_spans(reducer, IRBuilder.current().current_span)
    return reducer


def min(a: Any, b: Any) -> Any:  # pylint: disable=redefined-builtin
    """``T.min(a, b)``: ``tvm::min`` as TVM's ``script.ir_builder.tir.min`` calls it (types
    matched, two constants folded: ``T.min(1, 2)`` is ``1``)."""
    return _tir.min(a, b)


def max(a: Any, b: Any) -> Any:  # pylint: disable=redefined-builtin
    """``T.max(a, b)``: ``tvm::max`` as TVM's ``script.ir_builder.tir.max`` calls it (types
    matched, two constants folded)."""
    return _tir.max(a, b)


class _BufferProxy:
    """``T.Buffer``: ``T.Buffer((128, 128), "float32")`` and the old ``T.Buffer[(128,), "float32"]``
    (mirrors TVM's ``BufferProxy``)."""

    def __iter__(self) -> Any:
        """Not iterable: ``T.Buffer[0], T.Buffer[1], ...`` would never end."""
        raise TypeError("T.Buffer is not iterable")

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


class _PtrProxy:
    """``T.Ptr``: the deprecated spellings ``T.Ptr("float32")`` and ``T.Ptr[T.float32]`` of
    ``T.handle("float32")``, a pointer var into a storage scope (mirrors TVM v0.20's
    ``PtrProxy``; TVM prints ``T.handle``)."""

    def __iter__(self) -> Any:
        raise TypeError("T.Ptr is not iterable")

    def __call__(self, dtype: Any, storage_scope: str = "global") -> _tir.Var:
        if callable(dtype):  # T.Ptr[T.float32]: the dtype function
            dtype = dtype().dtype
        return ptr(dtype, storage_scope)

    def __getitem__(self, keys: Any) -> _tir.Var:
        return self(*keys) if isinstance(keys, tuple) else self(keys)


Ptr = _PtrProxy()  # pylint: disable=invalid-name


def sblock(name: str = "", no_realize: bool = False) -> Any:
    """tirx spelling of :func:`block` (TVM 0.27 ``T.sblock``)."""
    return block(name, no_realize)


def sblock_attr(attrs: dict[str, Any]) -> None:
    """tirx spelling of :func:`block_attr` (TVM 0.27 ``T.sblock_attr``)."""
    block_attr(attrs)


def sblock_alloc_buffer(shape: Any, dtype: Any = "float32", data: Any = None,
                        strides: Any = None, elem_offset: Any = None, scope: str = "global",
                        align: int = -1, offset_factor: int = 0) -> _tir.Buffer:
    """tirx spelling of :func:`alloc_buffer` (TVM 0.27 ``T.sblock_alloc_buffer``): a buffer in
    the enclosing block's ``alloc_buffers``, or the root block's at function level.
    ``shape`` in elements; ``align`` in bytes."""
    return alloc_buffer(shape, dtype, data, strides, elem_offset, scope, align, offset_factor)


def index_map(mapping: Callable[..., Any], *, inverse_index_map: Callable[..., Any] | None = None,
              index_dtype: str = "int64") -> Any:
    """``T.index_map(lambda i, j: (j, i))``: an ``IndexMap`` (mirrors
    ``tvm.script.ir_builder.tir.index_map``, i.e. ``tvm.tir.IndexMap.from_func``)."""
    return _tir.IndexMap.from_func(mapping, inverse_index_map=inverse_index_map,
                                   index_dtype=index_dtype)


def target(value: Any, host: Any = None) -> dict[str, Any]:
    """A target description for ``T.func_attr({"target": T.target("llvm")})`` (``T.target``;
    TVM's ``tvm.target.Target``): its config dict, ``{"kind": value}`` for a string, with
    ``"host"`` when given (a :class:`tirkit.ir.TargetConfig`: the classic printer writes it as
    that dict, the tirx printer as ``T.target(...)``, as TVM 0.27 does)."""
    return _TargetConfig.make(value, host)


def let(v: Any, value: Any, body: Any = None) -> Any:
    """``T.let(v, value, body)``: a ``Let`` expression; without ``body`` the legacy ``LetStmt``
    frame binding ``v`` (TVM v0.20's ``T.let``)."""
    if body is None:
        return LetStmt(value, var=v)
    return _tir.Let(v, value, body)


def Let(*args: Any, where: dict[Any, Any] | None = None) -> Any:  # pylint: disable=invalid-name
    """``T.Let(var, value, body)`` or TVM's printed form ``T.Let(body, where={var: value})``."""
    if where is None:
        return _tir.Let(*args)
    body = args[0]
    for var, value in reversed(list(where.items())):
        body = _tir.Let(var, value, body)
    return body


def fabs(x: Any, *, dtype: str | None = None) -> Any:
    """``T.fabs``: absolute value (TVM's alias of ``T.abs``)."""
    del dtype
    return abs(x)


def cast(value: Any, dtype: Any) -> Any:
    """``T.cast(value, dtype)`` (TVM's ``tvm.tir.Cast`` helper, folding constants)."""
    return _tir.cast(dtype, value)


def _ceildiv(a: Any, b: Any) -> Any:
    """``ceil(a / b)`` for integers as ``floordiv(a + b - 1, b)``, built as TVM's C++ ``ceildiv``
    builds it (``(a + b) - 1``: ``T.ceildiv(x, 4)`` is ``(x + 4 - 1) // 4``; constants fold)."""
    return _tir.floordiv(_tir.subtract(_tir.add(a, b), 1), b)


_ceildiv.__name__ = _ceildiv.__qualname__ = "ceildiv"
ceildiv = _op_wrapper(_ceildiv)


def ramp(base: Any, stride: Any, lanes: int) -> Any:
    """Lower-case alias of ``T.Ramp``."""
    x, y = _tir.convert_pair(base, stride)
    return Ramp(x, y, lanes)


def broadcast(value: Any, lanes: int) -> Any:
    """Lower-case alias of ``T.Broadcast``."""
    return Broadcast(value, lanes)


tvm_call_packed = call_packed  # noqa: F405
tvm_call_packed_lowered = call_packed_lowered  # noqa: F405
tvm_call_cpacked_lowered = call_cpacked_lowered  # noqa: F405
tvm_call_cpacked = call_cpacked  # noqa: F405


def prim_func(func: Any = None, *, private: bool = False, s_tir: bool = False,
              check_well_formed: bool = True, capture: Any = None) -> Any:
    """Decorator parsing a Python function as a PrimFunc when Python runs it (decorator mode;
    mirrors ``tvm.script.tir.prim_func``). Expressions see the function's globals and closure
    (seed 001 F1/F4) and the explicit ``capture``: host values (functions, objects) named by
    their ``__name__``, or a ``{name: value}`` dict (seed 001's
    ``@T.prim_func(capture=[get_box_coordinates])``). Static tools never run a captured host
    function: its use is one information note and the unit has no IR there.

    Raises:
        TypeError: a ``capture`` item without a ``__name__``.
        tirkit.ir.diagnostics.DiagnosticError: with every diagnostic of the function.
    """
    del s_tir, check_well_formed

    def decorate(fn: Any) -> Any:
        # tirkit.lang.entry.parse_python_function (entry imports this namespace)
        return _layers.get("parse_python_function")(fn, private=private, capture=capture)

    return decorate(func) if func is not None else decorate
