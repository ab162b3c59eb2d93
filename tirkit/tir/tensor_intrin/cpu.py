# pylint: disable=invalid-name,missing-function-docstring
"""Portable CPU tensor intrinsics: LLVM vector code that any CPU target vectorises (mirrors the
organisation of ``tvm.tir.tensor_intrin.x86`` / ``arm_cpu``; TVM has no target-neutral module).

``VEC_FMA_16_F32_INTRIN`` (``"vec_fma_16_f32"``): the rank-1 update of a matmul micro-kernel,
``C[0:16] += A[0] * B[0:16]`` (float32, 16 lanes): one ``broadcast * ramp-load + ramp-load``
vector multiply-add instead of 16 scalar ones. Tensorize a matmul's update block at a 16-wide
inner ``j`` loop whose ``k`` is outside it.

``VEC_FMA_4_F32_INTRIN`` (``"vec_fma_4_f32"``): the same over 4 lanes.

``VEC_DOT_4_F32_INTRIN`` (``"vec_dot_4_f32"``): the 4-long dot product ``C[0] += sum(A[0:4] *
B[0:4])`` (float32): a vector multiply and a horizontal add.
"""
from __future__ import annotations

from typing import Any

from tirkit.lang import tir as T

from . import TensorIntrin


def get_vec_fma_intrin(lanes: int, dtype: str = "float32") -> tuple[Any, Any]:
    """``(desc, impl)`` of ``C[0:lanes] += A[0] * B[0:lanes]`` (mirrors the shape of TVM's
    ``get_*_intrin`` helpers)."""

    @T.prim_func
    def vec_fma_desc(a: T.handle, b: T.handle, c: T.handle) -> None:
        A = T.match_buffer(a, (1,), dtype, offset_factor=1)
        B = T.match_buffer(b, (lanes,), dtype, offset_factor=1)
        C = T.match_buffer(c, (lanes,), dtype, offset_factor=1)
        with T.block("root"):
            T.reads(C[0:lanes], A[0:1], B[0:lanes])
            T.writes(C[0:lanes])
            for j in T.serial(lanes):
                with T.block("update"):
                    vj = T.axis.remap("S", [j])
                    C[vj] = C[vj] + A[0] * B[vj]

    @T.prim_func
    def vec_fma_impl(a: T.handle, b: T.handle, c: T.handle) -> None:
        A = T.match_buffer(a, (1,), dtype, offset_factor=1)
        B = T.match_buffer(b, (lanes,), dtype, offset_factor=1)
        C = T.match_buffer(c, (lanes,), dtype, offset_factor=1)
        with T.block("root"):
            T.reads(C[0:lanes], A[0:1], B[0:lanes])
            T.writes(C[0:lanes])
            C[T.ramp(0, 1, lanes)] = C[T.ramp(0, 1, lanes)] + T.broadcast(
                A[0], lanes) * B[T.ramp(0, 1, lanes)]

    return vec_fma_desc, vec_fma_impl


def get_vec_dot_intrin(lanes: int, dtype: str = "float32") -> tuple[Any, Any]:
    """``(desc, impl)`` of ``C[0] += sum(A[0:lanes] * B[0:lanes])`` (float32 only: the
    reduction starts from ``T.float32(0)``)."""

    @T.prim_func
    def vec_dot_desc(a: T.handle, b: T.handle, c: T.handle) -> None:
        A = T.match_buffer(a, (lanes,), dtype, offset_factor=1)
        B = T.match_buffer(b, (lanes,), dtype, offset_factor=1)
        C = T.match_buffer(c, (1,), dtype, offset_factor=1)
        with T.block("root"):
            T.reads(C[0:1], A[0:lanes], B[0:lanes])
            T.writes(C[0:1])
            for k in T.serial(lanes):
                with T.block("update"):
                    vk = T.axis.remap("R", [k])
                    C[0] = C[0] + A[vk] * B[vk]

    @T.prim_func
    def vec_dot_impl(a: T.handle, b: T.handle, c: T.handle) -> None:
        A = T.match_buffer(a, (lanes,), dtype, offset_factor=1)
        B = T.match_buffer(b, (lanes,), dtype, offset_factor=1)
        C = T.match_buffer(c, (1,), dtype, offset_factor=1)
        with T.block("root"):
            T.reads(C[0:1], A[0:lanes], B[0:lanes])
            T.writes(C[0:1])
            C[0] = C[0] + T.call_llvm_pure_intrin(
                dtype, "llvm.vector.reduce.fadd", T.uint32(2), T.float32(0),
                A[T.ramp(0, 1, lanes)] * B[T.ramp(0, 1, lanes)])

    return vec_dot_desc, vec_dot_impl


VEC_FMA_16_F32_INTRIN = "vec_fma_16_f32"
TensorIntrin.register(VEC_FMA_16_F32_INTRIN, *get_vec_fma_intrin(16), override=True)
VEC_FMA_4_F32_INTRIN = "vec_fma_4_f32"
TensorIntrin.register(VEC_FMA_4_F32_INTRIN, *get_vec_fma_intrin(4), override=True)
VEC_DOT_4_F32_INTRIN = "vec_dot_4_f32"
TensorIntrin.register(VEC_DOT_4_F32_INTRIN, *get_vec_dot_intrin(4), override=True)
