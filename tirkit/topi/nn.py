"""Neural-network operators (mirrors ``tvm.topi.nn``): relu, pad, conv2d (NCHW, NHWC, groups,
depthwise), pool2d / global_pool, softmax / log_softmax, layer_norm, dense, batch_matmul.

Conventions are TVM's: ``padding`` is an int, ``(h, w)`` or ``(top, left, bottom, right)``;
``stride``/``dilation`` an int or ``(h, w)``; weights are OIHW for NCHW and HWIO for NHWC;
depthwise filters are ``(C, multiplier, KH, KW)``.
"""
from __future__ import annotations

from typing import Any, Sequence

from tirkit import te, tir
from tirkit.arith import Analyzer

from .fast_math import fast_exp
from .reduction import normalize_axes

__all__ = ["relu", "pad", "conv2d_nchw", "conv2d_nhwc", "group_conv2d_nchw",
           "depthwise_conv2d_nchw", "pool2d", "global_pool", "softmax", "fast_softmax",
           "log_softmax", "layer_norm", "dense", "batch_matmul"]


def _pair(v: Any) -> tuple[int, int]:
    if isinstance(v, int):
        return v, v
    v = tuple(v)
    return (v[0], v[0]) if len(v) == 1 else (v[0], v[1])


def _pad4(v: Any) -> tuple[int, int, int, int]:
    if isinstance(v, int):
        return v, v, v, v
    v = tuple(v)
    if len(v) == 2:
        return v[0], v[1], v[0], v[1]
    if len(v) == 4:
        return v
    raise ValueError(f"padding must have 1, 2 or 4 values, got {v!r}")


def _simplify(e: Any) -> Any:
    return Analyzer().simplify(e)


def relu(x: te.Tensor) -> te.Tensor:
    """``max(x, 0)`` (``topi.nn.relu``)."""
    return te.compute(x.shape, lambda *i: tir.max(x[i], tir.const(0, x.dtype)), name="T_relu",
                      tag="elemwise")


def pad(data: te.Tensor, pad_before: Sequence[int], pad_after: Sequence[int] | None = None,
        pad_value: float = 0.0, name: str = "PadInput") -> te.Tensor:
    """``data`` padded with ``pad_value`` (``topi.nn.pad``)."""
    after = pad_before if pad_after is None else pad_after
    shape = [_simplify(d + b + a) for d, b, a in zip(data.shape, pad_before, after)]
    if not any(pad_before) and not any(after):
        return data

    def body(*idx: Any) -> Any:
        conds, src = [], []
        for i, d, b, a in zip(idx, data.shape, pad_before, after):
            if b:
                conds.append(i >= b)
            if a:
                conds.append(i < d + b)
            src.append(i - b if b else i)
        value = data[src]
        return tir.if_then_else(tir.all(*conds), value, tir.const(pad_value, data.dtype)) \
            if conds else value
    return te.compute(shape, body, name=name, tag="injective,pad")


def _out(size: Any, k: Any, stride: int, dil: int, lo: int, hi: int, ceil: bool = False) -> Any:
    span = size + lo + hi - (k - 1) * dil - 1
    return _simplify((span + stride - 1) // stride + 1 if ceil else span // stride + 1)


def group_conv2d_nchw(data: te.Tensor, kernel: te.Tensor, stride: Any, padding: Any,
                      dilation: Any, groups: int, out_dtype: str | None = None) -> te.Tensor:
    """Grouped 2-D convolution (``topi.nn.group_conv2d_nchw``): data (N, C, H, W), kernel
    (O, C/groups, KH, KW) -> (N, O, OH, OW)."""
    (sh, sw), (dh, dw) = _pair(stride), _pair(dilation)
    top, left, bottom, right = _pad4(padding)
    n, c, h, w = data.shape
    o, ci, kh, kw = kernel.shape
    oh, ow = _out(h, kh, sh, dh, top, bottom), _out(w, kw, sw, dw, left, right)
    padded = pad(data, [0, 0, top, left], [0, 0, bottom, right])
    rc = te.reduce_axis((0, ci), name="rc")
    ry, rx = te.reduce_axis((0, kh), name="ry"), te.reduce_axis((0, kw), name="rx")
    dtype = out_dtype or data.dtype
    per_group = _simplify(o // groups) if groups > 1 else o

    def body(b: Any, f: Any, y: Any, x: Any) -> Any:
        chan = (f // per_group) * ci + rc.var if groups > 1 else rc.var
        return te.sum(tir.Cast(dtype, padded[b, chan, y * sh + ry.var * dh, x * sw + rx.var * dw])
                      * tir.Cast(dtype, kernel[f, rc.var, ry.var, rx.var]), axis=[rc, ry, rx])
    return te.compute((n, o, oh, ow), body, name="conv2d_nchw", tag="conv2d_nchw")


def conv2d_nchw(data: te.Tensor, kernel: te.Tensor, stride: Any, padding: Any, dilation: Any,
                out_dtype: str | None = None) -> te.Tensor:
    """2-D convolution, NCHW data and OIHW kernel (``topi.nn.conv2d_nchw``)."""
    return group_conv2d_nchw(data, kernel, stride, padding, dilation, 1, out_dtype)


def conv2d_nhwc(data: te.Tensor, kernel: te.Tensor, stride: Any, padding: Any, dilation: Any,
                out_dtype: str | None = None) -> te.Tensor:
    """2-D convolution, NHWC data and HWIO kernel (``topi.nn.conv2d_nhwc``)."""
    (sh, sw), (dh, dw) = _pair(stride), _pair(dilation)
    top, left, bottom, right = _pad4(padding)
    n, h, w, _ = data.shape
    kh, kw, ci, o = kernel.shape
    oh, ow = _out(h, kh, sh, dh, top, bottom), _out(w, kw, sw, dw, left, right)
    padded = pad(data, [0, top, left, 0], [0, bottom, right, 0])
    rc = te.reduce_axis((0, ci), name="rc")
    ry, rx = te.reduce_axis((0, kh), name="ry"), te.reduce_axis((0, kw), name="rx")
    dtype = out_dtype or data.dtype
    return te.compute((n, oh, ow, o), lambda b, y, x, f: te.sum(
        tir.Cast(dtype, padded[b, y * sh + ry.var * dh, x * sw + rx.var * dw, rc.var])
        * tir.Cast(dtype, kernel[ry.var, rx.var, rc.var, f]), axis=[ry, rx, rc]),
        name="conv2d_nhwc", tag="conv2d_nhwc")


def depthwise_conv2d_nchw(data: te.Tensor, kernel: te.Tensor, stride: Any, padding: Any,
                          dilation: Any, out_dtype: str | None = None) -> te.Tensor:
    """Depthwise 2-D convolution (``topi.nn.depthwise_conv2d_nchw``): data (N, C, H, W),
    kernel (C, M, KH, KW) -> (N, C*M, OH, OW)."""
    (sh, sw), (dh, dw) = _pair(stride), _pair(dilation)
    top, left, bottom, right = _pad4(padding)
    n, c, h, w = data.shape
    _, mult, kh, kw = kernel.shape
    oh, ow = _out(h, kh, sh, dh, top, bottom), _out(w, kw, sw, dw, left, right)
    padded = pad(data, [0, 0, top, left], [0, 0, bottom, right])
    ry, rx = te.reduce_axis((0, kh), name="ry"), te.reduce_axis((0, kw), name="rx")
    dtype = out_dtype or data.dtype
    return te.compute((n, _simplify(c * mult), oh, ow), lambda b, f, y, x: te.sum(
        tir.Cast(dtype, padded[b, f // mult, y * sh + ry.var * dh, x * sw + rx.var * dw])
        * tir.Cast(dtype, kernel[f // mult, f % mult, ry.var, rx.var]), axis=[ry, rx]),
        name="DepthwiseConv2d", tag="depthwise_conv2d_nchw")


def pool2d(data: te.Tensor, kernel: Any, stride: Any, dilation: Any, padding: Any,
           pool_type: str, ceil_mode: bool = False, layout: str = "NCHW",
           count_include_pad: bool = True) -> te.Tensor:
    """Max or average 2-D pooling over NCHW (``topi.nn.pool2d``).

    Raises:
        ValueError: for another layout or pool type.
    """
    if layout != "NCHW" or pool_type not in ("max", "avg"):
        raise ValueError(f"pool2d: supports layout NCHW and pool_type max/avg, got {layout}, "
                         f"{pool_type}")
    (kh, kw), (sh, sw), (dh, dw) = _pair(kernel), _pair(stride), _pair(dilation)
    top, left, bottom, right = _pad4(padding)
    n, c, h, w = data.shape
    oh = _out(h, kh, sh, dh, top, bottom, ceil_mode)
    ow = _out(w, kw, sw, dw, left, right, ceil_mode)
    ry, rx = te.reduce_axis((0, kh), name="rv0"), te.reduce_axis((0, kw), name="rv1")
    fill = tir.min_value(data.dtype) if pool_type == "max" else tir.const(0, data.dtype)

    def window(b: Any, f: Any, y: Any, x: Any) -> Any:
        hy, wx = y * sh + ry.var * dh - top, x * sw + rx.var * dw - left
        inside = tir.all(hy >= 0, hy < h, wx >= 0, wx < w)
        return tir.if_then_else(inside, data[b, f, hy, wx], fill)

    if pool_type == "max":
        return te.compute((n, c, oh, ow), lambda *i: te.max(window(*i), axis=[ry, rx]),
                          name="pool_max", tag="pool_max")
    total = te.compute((n, c, oh, ow), lambda *i: te.sum(window(*i), axis=[ry, rx]),
                       name="pool_sum", tag="pool_sum")

    def avg(b: Any, f: Any, y: Any, x: Any) -> Any:
        if count_include_pad:
            count = tir.const(kh * kw, "int32")
        else:
            y0, x0 = y * sh - top, x * sw - left
            hcount = tir.min(y0 + (kh - 1) * dh, h - 1) - tir.max(y0, 0)
            wcount = tir.min(x0 + (kw - 1) * dw, w - 1) - tir.max(x0, 0)
            count = (hcount // dh + 1) * (wcount // dw + 1)
        return total[b, f, y, x] / tir.Cast(data.dtype, count)
    return te.compute((n, c, oh, ow), avg, name="pool_avg", tag="pool_avg")


def global_pool(data: te.Tensor, pool_type: str, layout: str = "NCHW") -> te.Tensor:
    """Max or average over H and W, keeping them as 1 (``topi.nn.global_pool``)."""
    if layout != "NCHW":
        raise ValueError(f"global_pool: supports NCHW, got {layout}")
    from . import reduction  # pylint: disable=import-outside-toplevel

    if pool_type == "max":
        return reduction.max(data, axis=[2, 3], keepdims=True)
    return reduction.mean(data, axis=[2, 3], keepdims=True)


def softmax(x: te.Tensor, axis: int = -1) -> te.Tensor:
    """Softmax along ``axis`` (``topi.nn.softmax``): max, exp(x - max), sum, divide."""
    return _softmax(x, axis)


def fast_softmax(x: te.Tensor, axis: int = -1) -> te.Tensor:
    """Softmax along ``axis`` with :func:`~tirkit.topi.fast_exp` for the exponential (mirrors
    ``topi.nn.fast_softmax``): blocks ``T_softmax_maxelem``, ``T_softmax_delta`` (``x - max``),
    ``T_fast_exp``, ``T_softmax_expsum`` and ``T_softmax_norm``; the output has ``x``'s shape.

    float32 (another float dtype gets the exact ``exp`` through ``fast_exp``'s fallback, as in
    TVM). Since ``x - max <= 0``, each exponential is within about 4e-6 relative of the exact
    one, and the result within 1e-5 of NumPy's softmax; a term more than about 87.7 below its
    row's maximum counts as 0 (its exact share is under 1e-38).

    Raises:
        ValueError: when ``axis`` is outside ``x``'s dimensions.
        TypeError: for a bool ``x`` (from ``fast_exp``).
    """
    return _softmax(x, axis, fast=True)


def log_softmax(x: te.Tensor, axis: int = -1) -> te.Tensor:
    """Log-softmax along ``axis`` (``topi.nn.log_softmax``): ``x - max - log(sum(exp(x - max)))``,
    same shape and dtype as ``x``. As TVM's, three stages: ``T_softmax_maxelem``, the exp-sum
    with the exponential inside the reduction and the output (both unnamed: ``compute``), the
    output carrying ``attrs={"axis": axis}``.

    Raises:
        ValueError: for an ``axis`` outside ``[-ndim, ndim)``.
    """
    axis = normalize_axes(axis, x.ndim)[0]
    k1, k2 = te.reduce_axis((0, x.shape[axis]), "k"), te.reduce_axis((0, x.shape[axis]), "k")
    mx = _row_max(x, axis, k1)
    sm = te.compute(mx.shape, lambda *i: te.sum(tir.exp(x[_with_axis(i, axis, k2.var)] -
                                                        mx[list(i)]), axis=k2))
    return te.compute(x.shape, lambda *i: x[i] - mx[_without_axis(i, axis)] -
                      tir.log(sm[_without_axis(i, axis)]), attrs={"axis": axis})


def _with_axis(idx: Sequence[Any], axis: int, r: Any) -> list[Any]:
    out = list(idx)
    out.insert(axis, r)
    return out


def _without_axis(idx: Sequence[Any], axis: int) -> list[Any]:
    return [v for k, v in enumerate(idx) if k != axis]


def _row_max(x: te.Tensor, axis: int, k: Any) -> te.Tensor:
    red = _without_axis(x.shape, axis)
    return te.compute(red, lambda *i: te.max(x[_with_axis(i, axis, k.var)], axis=k),
                      name="T_softmax_maxelem")


def _softmax(x: te.Tensor, axis: int, fast: bool = False) -> te.Tensor:
    axis = normalize_axes(axis, x.ndim)[0]
    k1, k2 = te.reduce_axis((0, x.shape[axis]), "k"), te.reduce_axis((0, x.shape[axis]), "k")
    mx = _row_max(x, axis, k1)
    if fast:  # TVM's softmax_common(use_fast_exp=True): a delta stage, then topi.fast_exp
        ex = fast_exp(te.compute(x.shape, lambda *i: x[i] - mx[_without_axis(i, axis)],
                                 name="T_softmax_delta"))
    else:
        ex = te.compute(x.shape, lambda *i: tir.exp(x[i] - mx[_without_axis(i, axis)]),
                        name="T_softmax_exp")
    sm = te.compute(mx.shape, lambda *i: te.sum(ex[_with_axis(i, axis, k2.var)], axis=k2),
                    name="T_softmax_expsum")
    # TVM's softmax_common: the output block carries the axis attribute
    return te.compute(x.shape, lambda *i: ex[i] / sm[_without_axis(i, axis)],
                      name="T_softmax_norm", attrs={"axis": axis})


def layer_norm(data: te.Tensor, gamma: te.Tensor, beta: te.Tensor, axis: Any,
               epsilon: float = 1e-5) -> te.Tensor:
    """``(x - mean) / sqrt(var + eps) * gamma + beta`` over ``axis`` (``topi.nn.layer_norm``);
    ``gamma``/``beta`` have the shape of the normalized axes."""
    from . import reduction  # pylint: disable=import-outside-toplevel

    axes = normalize_axes(axis, data.ndim)
    mean = reduction.mean(data, axes, keepdims=True)
    sq = te.compute(data.shape, lambda *i: (data[i] - mean[_keep(i, axes)]) *
                    (data[i] - mean[_keep(i, axes)]), name="T_sq")
    var = reduction.mean(sq, axes, keepdims=True)
    eps = tir.const(epsilon, data.dtype)
    return te.compute(data.shape, lambda *i: (data[i] - mean[_keep(i, axes)]) /
                      tir.sqrt(var[_keep(i, axes)] + eps) * gamma[[i[a] for a in axes]] +
                      beta[[i[a] for a in axes]], name="T_layer_norm")


def _keep(idx: Sequence[Any], axes: Sequence[int]) -> list[Any]:
    return [tir.const(0, "int32") if k in axes else v for k, v in enumerate(idx)]


def dense(data: te.Tensor, weight: te.Tensor, bias: te.Tensor | None = None,
          out_dtype: str | None = None) -> te.Tensor:
    """``data @ weight.T (+ bias)`` (``topi.nn.dense``): (B, K), (M, K), (M,) -> (B, M)."""
    dtype = out_dtype or data.dtype
    k = te.reduce_axis((0, data.shape[1]), name="k")
    out = te.compute((data.shape[0], weight.shape[0]), lambda i, j: te.sum(
        tir.Cast(dtype, data[i, k.var]) * tir.Cast(dtype, weight[j, k.var]), axis=k),
        name="T_matmul_NT", tag="dense")
    if bias is None:
        return out
    return te.compute(out.shape, lambda i, j: out[i, j] + tir.Cast(dtype, bias[j]),
                      name="T_add", tag="broadcast")


def batch_matmul(x: te.Tensor, y: te.Tensor, transpose_a: bool = False,
                 transpose_b: bool = True) -> te.Tensor:
    """Batched matrix product (``topi.nn.batch_matmul``): (B, N, K) and (B, M, K) with the
    default ``transpose_b=True`` -> (B, N, M); a batch of 1 broadcasts."""
    from .transform import matmul  # pylint: disable=import-outside-toplevel

    return matmul(x, y, transpose_a, transpose_b)
