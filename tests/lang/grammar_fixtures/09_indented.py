# -*- coding: utf-8 -*-
"""A prim_func built inside a Python function (seed 001 F1): an indented unit."""
from tvm.script import tir as T

GREETING = "grüße ✓ — 数据"  # non-ASCII text before the unit: bytes differ from chars


def gen_matmul(n, m):
    note = "ünïcode"

    @T.prim_func
    def matmul(a: T.handle, b: T.handle, c: T.handle):
        A = T.match_buffer(a, (n, m), "float32")
        B = T.match_buffer(b, (m, n), "float32")
        C = T.match_buffer(c, (n, n), "float32")
        # ünïcode comment
        for i, j, k in T.grid(n, n, m):
            with T.block("C"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                with T.init():
                    C[vi, vj] = 0.0
                C[vi, vj] += A[vi, vk] * B[vk, vj]  # accumulate «x»

    return matmul, note
