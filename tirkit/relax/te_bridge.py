"""Staging TE into Relax (seed 004, D0-D2; mirrors ``BlockBuilder.call_te`` and
``relax.te_tensor``).

D0: a Relax expression of known tensor shape is wrapped as a ``te.placeholder`` of that shape;
D1: the TE function (any ``tirkit.topi`` operator or user code) builds its compute on them;
D2: ``te.create_prim_func`` turns inputs + outputs into a PrimFunc, added to the module, and the
call becomes ``call_tir`` — or ``call_tir_dyn`` with the symbolic ints the PrimFunc takes after
its buffers (vars that occur only inside shape expressions, such as ``m`` in
``2 * floordiv(m, 2)``).
"""
from __future__ import annotations

from typing import Any, Callable, cast

from tirkit import tir
from tirkit.tir.stmt_functor import renew_defs

from .expr import Call, Expr, ShapeExpr
from .op.base import call_tir, call_tir_dyn
from .struct_info import TensorStructInfo


class EmitTEError(ValueError):
    """An argument of ``emit_te`` cannot be staged (not a tensor of known shape...)."""


def te_tensor(expr: Expr, name: str = "rxplaceholder") -> Any:
    """A ``te.placeholder`` with the shape and dtype of the Relax tensor ``expr``
    (``relax.te_tensor``).

    Raises:
        EmitTEError: when ``expr`` is not a tensor of known shape.
    """
    from tirkit import te  # pylint: disable=import-outside-toplevel

    sinfo = expr.struct_info_
    if not isinstance(sinfo, TensorStructInfo) or sinfo.shape is None:
        raise EmitTEError(f"emit_te: {expr!r} must be a tensor of known shape to stage it with "
                          "TE (use match_cast to give it one)")
    return te.placeholder(sinfo.shape, str(sinfo.dtype), name=name)


def _convert(value: Any, inputs: list, names: dict) -> Any:
    if isinstance(value, Expr):
        key = id(value)
        if key not in names:
            tensor = te_tensor(value, getattr(value, "name_hint", "rxplaceholder") or "x")
            names[key] = tensor
            inputs.append((value, tensor))
        return names[key]
    if isinstance(value, (list, tuple)):
        return type(value)(_convert(v, inputs, names) for v in value)
    return value


def call_te(bb: Any, func: Callable[..., Any], *args: Any, **kwargs: Any) -> Call:
    """The call that staging ``func(*args, **kwargs)`` through TE gives (see module doc).

    Raises:
        EmitTEError: when ``func`` returns no TE tensor.
    """
    from tirkit import te  # pylint: disable=import-outside-toplevel

    name_hint = kwargs.pop("primfunc_name_hint", None)
    inputs: list[tuple[Expr, Any]] = []
    names: dict[int, Any] = {}
    te_args = [_convert(a, inputs, names) for a in args]
    te_kwargs = {k: _convert(v, inputs, names) for k, v in kwargs.items()}
    out = func(*te_args, **te_kwargs)
    outs = list(out) if isinstance(out, (list, tuple)) else [out]
    if not outs or not all(isinstance(t, te.Tensor) for t in outs):
        raise EmitTEError(f"emit_te: {getattr(func, '__name__', func)!r} must return a TE tensor "
                          "or a list of them")
    prim = te.create_prim_func([t for _, t in inputs] + outs)
    name = name_hint or getattr(func, "__name__", None) or outs[0].op.name
    if name == "<lambda>":
        name = outs[0].op.name
    # the lifted symbolic ints, as the caller's vars (before the PrimFunc gets its own vars)
    scalars = list(prim.params[len(inputs) + len(outs):])
    fname = bb.get_unique_name(name)
    named = cast(tir.PrimFunc, prim.with_attr("global_symbol", fname))
    gvar = bb.add_func(renew_defs(named), fname)
    out_sinfo = [TensorStructInfo(tuple(t.shape), str(t.dtype)) for t in outs]
    rx_args = [e for e, _ in inputs]
    if scalars:
        return call_tir_dyn(gvar, rx_args, out_sinfo, ShapeExpr(_as_int64(scalars)))
    return call_tir(gvar, rx_args, out_sinfo)


def _as_int64(params: list[Any]) -> list[Any]:
    out = []
    for p in params:
        if not isinstance(p, tir.Var):
            raise EmitTEError(f"emit_te: unexpected PrimFunc parameter {p!r}")
        out.append(p if p.dtype == "int64" else tir.Cast("int64", p))
    return out
