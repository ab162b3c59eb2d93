"""Calls into lower-level functions (mirrors ``tvm.relax.op.base``): ``call_tir`` (a PrimFunc in
destination-passing style), ``call_tir_dyn`` (seed 004: the same, with symbolic ints passed after
the outputs) and ``call_dps_packed`` (an external packed function).

``call_tir(f, (x, y), out_sinfo)`` means: allocate the outputs described by ``out_sinfo``, call
``f(x, y, *outputs)``, return the output (or a tuple of them when ``out_sinfo`` is a list).
"""
from __future__ import annotations

from typing import Any, Sequence

from tirkit.ir.expr import GlobalVar

from ..expr import Call, Expr, ExternFunc, ShapeExpr, Tuple
from ..struct_info import StructInfo, TensorStructInfo, TupleStructInfo
from .registry import RelaxOpError, get_op, register


def _infer_dps(call: Call) -> StructInfo:
    if not call.sinfo_args:
        raise RelaxOpError(f"{call.op.name}: out_sinfo is required")
    return call.sinfo_args[0]


for _name in ("call_tir", "call_tir_dyn", "call_dps_packed"):
    register(_name, _infer_dps, "destination-passing call of a lower-level function")


def _out(out_sinfo: Any) -> StructInfo:
    if isinstance(out_sinfo, (list, tuple)):
        if not all(isinstance(s, TensorStructInfo) for s in out_sinfo):
            raise RelaxOpError("out_sinfo must be tensor struct info (or a list of them)")
        return out_sinfo[0] if len(out_sinfo) == 1 else TupleStructInfo(list(out_sinfo))
    if not isinstance(out_sinfo, TensorStructInfo):
        raise RelaxOpError(f"out_sinfo must be a TensorStructInfo, got "
                           f"{type(out_sinfo).__name__}")
    return out_sinfo


def _args(args: Any) -> Tuple:
    if isinstance(args, Tuple):
        return args
    if isinstance(args, Expr):
        return Tuple([args])
    return Tuple(list(args))


def _call(name: str, func: Any, args: Any, out_sinfo: Any, extra: Sequence[Expr] = ()) -> Call:
    sinfo = _out(out_sinfo)
    call = Call(get_op(name), (func, _args(args)) + tuple(extra), {}, (sinfo,))
    object.__setattr__(call, "struct_info_", sinfo)
    return call


def call_tir(gvar: Any, args: Any, out_sinfo: Any, tir_vars: Any = None) -> Call:
    """Call the PrimFunc ``gvar`` in destination-passing style (``relax.op.call_tir``).

    ``args`` is a Tuple or a list of tensors; ``out_sinfo`` a TensorStructInfo or a list of them
    (the outputs the callee writes); ``tir_vars`` an optional ShapeExpr of symbolic ints passed
    after the outputs. Returns a normalized Call whose struct info is the output's.

    Raises:
        RelaxOpError: when ``gvar`` is not a GlobalVar or ``out_sinfo`` is not tensor struct
            info.
    """
    if not isinstance(gvar, GlobalVar):
        raise RelaxOpError(f"call_tir: the callee must be the GlobalVar of a PrimFunc, got "
                           f"{type(gvar).__name__} {gvar!r}")
    extra = () if tir_vars is None else (tir_vars if isinstance(tir_vars, ShapeExpr)
                                         else ShapeExpr(list(tir_vars)),)
    return _call("call_tir", gvar, args, out_sinfo, extra)


def call_tir_dyn(gvar: Any, args: Any, out_sinfo: Any, symbolic_ints: Any) -> Call:
    """``call_tir`` passing the symbolic ints ``symbolic_ints`` (a ShapeExpr or a list of
    PrimExprs) after the outputs: ``f(*args, *outputs, *symbolic_ints)`` (seed 004's
    ``call_tir_dyn``; TVM now spells it ``call_tir(..., tir_vars=...)``)."""
    ints = symbolic_ints if isinstance(symbolic_ints, ShapeExpr) else ShapeExpr(list(symbolic_ints))
    return _call("call_tir_dyn", gvar, args, out_sinfo, (ints,))


def call_dps_packed(func: Any, args: Any, out_sinfo: Any) -> Call:
    """Call an external packed function by name in destination-passing style
    (``relax.op.call_dps_packed``); the VM looks it up in :data:`tirkit.relax.vm.PACKED_FUNCS`."""
    if isinstance(func, str):
        func = ExternFunc(func)
    return _call("call_dps_packed", func, args, out_sinfo)
