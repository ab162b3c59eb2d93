"""Legalizations of the Relax operators through ``tirkit.topi`` (mirrors TVM's
``relax/transform/legalize_ops/*.py``): one registration per operator, each a ``bb.call_te``
of the topi operator with the call's attributes. Each PrimFunc is named after its operator
(``add``, ``matmul``, ``conv2d`` ...), as TVM names them.
"""
from __future__ import annotations

from typing import Any, Callable, cast

from tirkit import te, tir, topi

from .. import expr as rx
from ..block_builder import BlockBuilder
from .legalize_registry import register_legalize


def _te(name: str, fn: Callable[..., Any]) -> Callable[[BlockBuilder, rx.Call], rx.Expr]:
    def legalize(bb: BlockBuilder, call: rx.Call) -> rx.Expr:
        return bb.call_te(fn, *call.args, primfunc_name_hint=name)
    return legalize


_ELEMWISE: dict[str, Callable[..., Any]] = {
    "add": topi.add, "subtract": topi.subtract, "multiply": topi.multiply,
    "divide": topi.divide, "floor_divide": topi.floor_divide, "power": topi.power,
    "maximum": topi.maximum, "minimum": topi.minimum, "exp": topi.exp,
    "log": topi.log, "sqrt": topi.sqrt, "tanh": topi.tanh, "sigmoid": topi.sigmoid,
    "negative": topi.negative, "abs": topi.abs}
for _op, _fn in _ELEMWISE.items():
    register_legalize(f"relax.{_op}")(_te(_op, _fn))


@register_legalize("relax.nn.relu")
def _relu(bb: BlockBuilder, call: rx.Call) -> rx.Expr:
    return bb.call_te(topi.nn.relu, call.args[0], primfunc_name_hint="relu")


def _gelu_te(x: te.Tensor) -> te.Tensor:
    half = tir.const(0.5, x.dtype)
    rsqrt2 = tir.const(0.7071067811865476, x.dtype)
    return te.compute(x.shape, lambda *i: x[i] * (half + tir.erf(x[i] * rsqrt2) * half),
                      name="T_gelu")


@register_legalize("relax.nn.gelu")
def _gelu(bb: BlockBuilder, call: rx.Call) -> rx.Expr:
    return bb.call_te(_gelu_te, call.args[0], primfunc_name_hint="gelu")


def _silu_te(x: te.Tensor) -> te.Tensor:
    return te.compute(x.shape, lambda *i: x[i] * tir.sigmoid(x[i]), name="T_silu")


@register_legalize("relax.nn.silu")
def _silu(bb: BlockBuilder, call: rx.Call) -> rx.Expr:
    return bb.call_te(_silu_te, call.args[0], primfunc_name_hint="silu")


@register_legalize("relax.matmul")
def _matmul(bb: BlockBuilder, call: rx.Call) -> rx.Expr:
    a, b = call.args
    a_nd, b_nd = cast(Any, a.struct_info_).ndim, cast(Any, b.struct_info_).ndim  # (tensors)

    def fn(x: te.Tensor, y: te.Tensor) -> te.Tensor:
        xx = topi.reshape(x, [1] + list(x.shape)) if a_nd == 1 else x
        yy = topi.reshape(y, list(y.shape) + [1]) if b_nd == 1 else y
        out = topi.matmul(xx, yy)
        if a_nd == 1 or b_nd == 1:
            keep = [d for k, d in enumerate(out.shape)
                    if not ((a_nd == 1 and k == len(out.shape) - 2) or
                            (b_nd == 1 and k == len(out.shape) - 1))]
            out = topi.reshape(out, keep)
        return out
    return bb.call_te(fn, a, b, primfunc_name_hint="matmul")


@register_legalize("relax.nn.softmax")
def _softmax(bb: BlockBuilder, call: rx.Call) -> rx.Expr:
    return bb.call_te(topi.nn.softmax, call.args[0], call.attrs.get("axis", -1),
                      primfunc_name_hint="softmax")


@register_legalize("relax.nn.log_softmax")
def _log_softmax(bb: BlockBuilder, call: rx.Call) -> rx.Expr:
    return bb.call_te(topi.nn.log_softmax, call.args[0], call.attrs.get("axis", -1),
                      primfunc_name_hint="log_softmax")


@register_legalize("relax.nn.conv2d")
def _conv2d(bb: BlockBuilder, call: rx.Call) -> rx.Expr:
    a = call.attrs
    data, weight = call.args
    if a["groups"] == 1:
        return bb.call_te(topi.nn.conv2d_nchw, data, weight, a["strides"], a["padding"],
                          a["dilation"], a.get("out_dtype"), primfunc_name_hint="conv2d")
    return bb.call_te(topi.nn.group_conv2d_nchw, data, weight, a["strides"], a["padding"],
                      a["dilation"], a["groups"], a.get("out_dtype"),
                      primfunc_name_hint="group_conv2d")


def _pool(kind: str) -> Callable[[BlockBuilder, rx.Call], rx.Expr]:
    def legalize(bb: BlockBuilder, call: rx.Call) -> rx.Expr:
        a = call.attrs
        return bb.call_te(topi.nn.pool2d, call.args[0], a["pool_size"], a["strides"],
                          a["dilation"], a["padding"], kind, a.get("ceil_mode", False),
                          a.get("layout", "NCHW"), False, primfunc_name_hint=f"{kind}_pool2d")
    return legalize


register_legalize("relax.nn.max_pool2d")(_pool("max"))
register_legalize("relax.nn.avg_pool2d")(_pool("avg"))


@register_legalize("relax.reshape")
def _reshape(bb: BlockBuilder, call: rx.Call) -> rx.Expr:
    shape = cast(Any, call.struct_info_).shape  # (a tensor of known shape)
    return bb.call_te(topi.reshape, call.args[0], list(shape), primfunc_name_hint="reshape")


@register_legalize("relax.permute_dims")
def _permute(bb: BlockBuilder, call: rx.Call) -> rx.Expr:
    return bb.call_te(topi.transpose, call.args[0], call.attrs.get("axes"),
                      primfunc_name_hint="transpose")


@register_legalize("relax.concat")
def _concat(bb: BlockBuilder, call: rx.Call) -> rx.Expr:
    fields = list(cast(rx.Tuple, call.args[0]).fields)
    return bb.call_te(topi.concatenate, fields, call.attrs.get("axis", 0),
                      primfunc_name_hint="concatenate")


def _reduce(name: str) -> Callable[[BlockBuilder, rx.Call], rx.Expr]:
    def legalize(bb: BlockBuilder, call: rx.Call) -> rx.Expr:
        return bb.call_te(getattr(topi, name), call.args[0], call.attrs.get("axis"),
                          call.attrs.get("keepdims", False), primfunc_name_hint=name)
    return legalize


for _name in ("sum", "mean", "max", "min", "prod"):
    register_legalize(f"relax.{_name}")(_reduce(_name))
