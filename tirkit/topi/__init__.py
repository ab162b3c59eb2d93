"""A TE operator library (mirrors ``tvm.topi``): element-wise and broadcasting operators,
reductions, layout transforms, matmul, the fast-math ``fast_exp``/``fast_tanh``/``fast_erf``
(vectorizable polynomial approximations), and ``topi.nn`` (conv2d, pooling, softmax, layer_norm,
dense ...). Each returns TE tensors; ``te.create_prim_func`` makes a PrimFunc of them.

    A = te.placeholder((n, 64), name="A")
    B = topi.nn.softmax(A)
    func = te.create_prim_func([A, B])
"""
from __future__ import annotations

from . import nn
from .broadcast import (abs, add, broadcast_shape, broadcast_to, cast, clip, divide, erf, exp,  # pylint: disable=redefined-builtin
                        floor_divide, log, maximum, minimum, multiply, negative, power, sigmoid,
                        sqrt, subtract, tanh)
from .fast_math import fast_erf, fast_exp, fast_tanh
from .reduction import argmax, argmin, max, mean, min, prod, sum  # pylint: disable=redefined-builtin
from .transform import concatenate, matmul, reshape, take, transpose

__all__ = ["nn", "add", "subtract", "multiply", "divide", "floor_divide", "power", "maximum",
           "minimum", "exp", "log", "sqrt", "tanh", "sigmoid", "erf", "fast_exp", "fast_tanh",
           "fast_erf", "negative", "abs", "clip", "cast", "broadcast_to", "broadcast_shape", "sum",
           "max", "min", "prod", "mean", "argmax", "argmin",
           "transpose", "reshape", "concatenate", "take", "matmul"]
