"""Tensor expressions (mirrors ``tvm.te``): describe a computation as tensors of index
expressions, then turn it into a block-form PrimFunc with :func:`create_prim_func`.

    A = te.placeholder((128, 128), name="A")
    B = te.compute((128, 128), lambda x, y: A[x, y] * 2, name="B")
    func = te.create_prim_func([A, B])
"""
from __future__ import annotations

from tirkit.tir import if_then_else

from .create_prim_func import CreatePrimFuncError, create_prim_func
from .reduction import argmax, argmin, comm_reducer, max, min, reduce_axis, sum  # pylint: disable=redefined-builtin
from .tensor import (ComputeOp, ExternOp, Operation, PlaceholderOp, Tensor, compute, const,
                     extern, placeholder, size_var, var)

__all__ = ["Tensor", "Operation", "PlaceholderOp", "ComputeOp", "ExternOp", "placeholder",
           "compute", "extern", "var", "size_var", "const", "reduce_axis", "comm_reducer",
           "sum", "max", "min", "argmax", "argmin", "if_then_else", "create_prim_func", "CreatePrimFuncError"]
