"""Relax operators (mirrors ``tvm.relax.op``): build normalized calls with struct info.

``relax.op.add(x, y)``, ``relax.op.nn.relu(x)``, ``relax.op.call_tir(gv, (x,), out_sinfo)`` ...
"""
from __future__ import annotations

from types import SimpleNamespace

from . import nn as _nn
from .base import call_dps_packed, call_tir, call_tir_dyn
from .registry import RelaxOpError, get_op, infer_struct_info, make_call
from .tensor import (add, concat, divide, matmul, maximum, mean, minimum, multiply, permute_dims,
                     reshape, subtract, sum, unary)  # pylint: disable=redefined-builtin


def exp(x):
    """Element-wise e**x (``relax.op.exp``)."""
    return unary("exp", x)


def log(x):
    """Element-wise natural log (``relax.op.log``)."""
    return unary("log", x)


def sqrt(x):
    """Element-wise square root (``relax.op.sqrt``)."""
    return unary("sqrt", x)


def tanh(x):
    """Element-wise tanh (``relax.op.tanh``)."""
    return unary("tanh", x)


def sigmoid(x):
    """Element-wise logistic sigmoid (``relax.op.sigmoid``)."""
    return unary("sigmoid", x)


def negative(x):
    """Element-wise negation (``relax.op.negative``)."""
    return unary("negative", x)


def _relu(x):
    """max(x, 0) (``relax.op.nn.relu``)."""
    return unary("nn.relu", x)


def _gelu(x):
    """GELU, erf form (``relax.op.nn.gelu``)."""
    return unary("nn.gelu", x)


def _silu(x):
    """x * sigmoid(x) (``relax.op.nn.silu``)."""
    return unary("nn.silu", x)


nn = SimpleNamespace(relu=_relu, gelu=_gelu, silu=_silu, softmax=_nn.softmax,
                     log_softmax=_nn.log_softmax, conv2d=_nn.conv2d, max_pool2d=_nn.max_pool2d,
                     avg_pool2d=_nn.avg_pool2d)
linear = _nn.linear

__all__ = ["add", "subtract", "multiply", "divide", "maximum", "minimum", "matmul", "reshape",
           "permute_dims", "concat", "sum", "mean", "exp", "log", "sqrt", "tanh", "sigmoid",
           "negative", "nn", "linear", "call_tir", "call_tir_dyn", "call_dps_packed",
           "RelaxOpError", "get_op", "infer_struct_info", "make_call"]
