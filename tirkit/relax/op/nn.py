"""Neural-network operators with struct-info inference (mirrors ``tvm.relax.op.nn``): softmax,
log_softmax, conv2d (NCHW/OIHW), max_pool2d / avg_pool2d (NCHW), linear.

Output dims follow TVM's formulas: ``(in + pad_before + pad_after - dilation*(k-1) - 1)
// stride + 1``, simplified, symbolic where the input is.
"""
from __future__ import annotations

from typing import Any

from tirkit import tir
from tirkit.arith import Analyzer

from ..expr import Expr
from ..struct_info import TensorStructInfo
from .registry import RelaxOpError, make_call, normalize_axis, register, tensor_arg
from .tensor import add, matmul, permute_dims


def _pair(value: Any, n: int = 2) -> tuple[int, ...]:
    if isinstance(value, int):
        return (value,) * n
    value = tuple(int(v) for v in value)
    if len(value) == 1:
        return value * n
    return value


def _padding4(value: Any) -> tuple[int, int, int, int]:
    """TVM's padding: one int, (h, w), or (top, left, bottom, right)."""
    pad = _pair(value)
    if len(pad) == 2:
        return (pad[0], pad[1], pad[0], pad[1])
    if len(pad) == 4:
        return pad
    raise RelaxOpError(f"padding must have 1, 2 or 4 values, got {value!r}")


def _out_dim(size: Any, k: Any, stride: int, dilation: int, pad: int, ceil: bool = False) -> Any:
    span = size + pad - (k - 1) * dilation - 1
    out = (span + stride - 1) // stride + 1 if ceil else span // stride + 1
    return Analyzer().simplify(out)


# ------------------------------------------------------------------------------ softmax
def _infer_softmax(call: Any) -> TensorStructInfo:
    x = tensor_arg(call, 0)
    if x.ndim >= 0:
        normalize_axis(call.op.name, call.attrs.get("axis", -1), x.ndim)
    if not x.dtype.is_floating():
        raise RelaxOpError(f"{call.op.name}: input must be floating point, got {x.dtype}")
    return x


register("nn.softmax", _infer_softmax, "softmax along an axis")
register("nn.log_softmax", _infer_softmax, "log-softmax along an axis")


def softmax(data: Expr, axis: int = -1) -> Any:
    """Softmax along ``axis`` (``relax.op.nn.softmax``)."""
    return make_call("nn.softmax", [data], {"axis": axis})


def log_softmax(data: Expr, axis: int = -1) -> Any:
    """Log-softmax along ``axis`` (``relax.op.nn.log_softmax``)."""
    return make_call("nn.log_softmax", [data], {"axis": axis})


# ------------------------------------------------------------------------------- conv2d
def _infer_conv2d(call: Any) -> TensorStructInfo:
    data, weight = tensor_arg(call, 0, "data"), tensor_arg(call, 1, "weight")
    a = call.attrs
    if data.ndim != 4 or weight.ndim != 4:
        raise RelaxOpError(f"relax.nn.conv2d: data and weight must be 4-D (NCHW, OIHW), got "
                           f"ranks {data.ndim} and {weight.ndim}")
    dtype = a.get("out_dtype") or data.dtype
    if data.shape is None or weight.shape is None:
        return TensorStructInfo(None, dtype, 4)
    n, c, h, w = data.shape
    o, i, kh, kw = weight.shape
    groups = a["groups"]
    if isinstance(c, tir.IntImm) and isinstance(i, tir.IntImm) and c.value != i.value * groups:
        raise RelaxOpError(f"relax.nn.conv2d: input channels {c} != weight in-channels {i} x "
                           f"groups {groups}")
    top, left, bottom, right = a["padding"]
    sh, sw = a["strides"]
    dh, dw = a["dilation"]
    return TensorStructInfo((n, o, _out_dim(h, kh, sh, dh, top + bottom),
                             _out_dim(w, kw, sw, dw, left + right)), dtype)


register("nn.conv2d", _infer_conv2d, "2-D convolution, NCHW data and OIHW weight")


def conv2d(data: Expr, weight: Expr, strides: Any = (1, 1), padding: Any = (0, 0),
           dilation: Any = (1, 1), groups: int = 1, data_layout: str = "NCHW",
           kernel_layout: str = "OIHW", out_dtype: str | None = None) -> Any:
    """2-D convolution (``relax.op.nn.conv2d``): data (N, C, H, W), weight (O, C/groups, KH, KW)
    -> (N, O, OH, OW).

    Raises:
        RelaxOpError: for layouts other than NCHW/OIHW, or mismatched channels.
    """
    if data_layout != "NCHW" or kernel_layout != "OIHW":
        raise RelaxOpError(f"relax.nn.conv2d: only NCHW/OIHW layouts are supported, got "
                           f"{data_layout}/{kernel_layout}")
    attrs = {"strides": _pair(strides), "padding": _padding4(padding),
             "dilation": _pair(dilation), "groups": groups, "data_layout": data_layout,
             "kernel_layout": kernel_layout, "out_dtype": out_dtype}
    return make_call("nn.conv2d", [data, weight], attrs)


# --------------------------------------------------------------------------------- pools
def _infer_pool2d(call: Any) -> TensorStructInfo:
    data = tensor_arg(call, 0, "data")
    a = call.attrs
    if data.ndim != 4:
        raise RelaxOpError(f"{call.op.name}: data must be 4-D NCHW, got rank {data.ndim}")
    if data.shape is None:
        return data
    n, c, h, w = data.shape
    top, left, bottom, right = a["padding"]
    (kh, kw), (sh, sw), (dh, dw) = a["pool_size"], a["strides"], a["dilation"]
    ceil = a.get("ceil_mode", False)
    return TensorStructInfo((n, c, _out_dim(h, kh, sh, dh, top + bottom, ceil),
                             _out_dim(w, kw, sw, dw, left + right, ceil)), data.dtype)


register("nn.max_pool2d", _infer_pool2d, "2-D max pooling, NCHW")
register("nn.avg_pool2d", _infer_pool2d, "2-D average pooling, NCHW")


def _pool(name: str, data: Expr, pool_size: Any, strides: Any, padding: Any, dilation: Any,
          ceil_mode: bool, layout: str) -> Any:
    if layout != "NCHW":
        raise RelaxOpError(f"relax.{name}: only the NCHW layout is supported, got {layout}")
    attrs = {"pool_size": _pair(pool_size), "strides": _pair(strides),
             "padding": _padding4(padding), "dilation": _pair(dilation),
             "ceil_mode": ceil_mode, "layout": layout}
    return make_call(name, [data], attrs)


def max_pool2d(data: Expr, pool_size: Any = (1, 1), strides: Any = (1, 1),
               padding: Any = (0, 0), dilation: Any = (1, 1), ceil_mode: bool = False,
               layout: str = "NCHW") -> Any:
    """2-D max pooling (``relax.op.nn.max_pool2d``): (N, C, H, W) -> (N, C, OH, OW)."""
    return _pool("nn.max_pool2d", data, pool_size, strides, padding, dilation, ceil_mode, layout)


def avg_pool2d(data: Expr, pool_size: Any = (1, 1), strides: Any = (1, 1),
               padding: Any = (0, 0), dilation: Any = (1, 1), ceil_mode: bool = False,
               layout: str = "NCHW") -> Any:
    """2-D average pooling (``relax.op.nn.avg_pool2d``), padding excluded from the count."""
    return _pool("nn.avg_pool2d", data, pool_size, strides, padding, dilation, ceil_mode, layout)


def linear(data: Expr, weight: Expr, bias: Expr | None = None) -> Any:
    """``data @ weight.T + bias`` (``relax.op.linear``): (..., k), (m, k), (m,) -> (..., m)."""
    out = matmul(data, permute_dims(weight))
    return add(out, bias) if bias is not None else out
