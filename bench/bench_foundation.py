"""Benchmarks of the foundation layer: building IR, structural equality/hash, simplification."""
from __future__ import annotations

import random

import api_kernels
from registry import bench

from tirkit import tir
from tirkit.arith import Analyzer, detect_iter_map
from tirkit.ir import Range, structural_equal, structural_hash

KERNELS = (api_kernels.matmul, api_kernels.softmax, api_kernels.conv2d_nchw)


@bench("build_kernels", "kernels")
def build_kernels():
    def run():
        for _ in range(20):
            for build in KERNELS:
                build()
    return 20 * len(KERNELS), run


@bench("structural_equal", "comparisons")
def structural_equal_kernels():
    pairs = [(b(), b()) for b in KERNELS] * 10

    def run():
        for a, b in pairs:
            assert structural_equal(a, b)
    return len(pairs), run


@bench("structural_hash", "hashes")
def structural_hash_kernels():
    funcs = [b() for b in KERNELS] * 10

    def run():
        for f in funcs:
            structural_hash(f)
    return len(funcs), run


def _random_index_exprs(n: int, seed: int = 0):
    rng = random.Random(seed)
    i, j, k = tir.Var("i"), tir.Var("j"), tir.Var("k")
    leaves = [i, j, k]
    out = []
    for _ in range(n):
        e = rng.choice(leaves)
        for _ in range(rng.randint(2, 6)):
            c = rng.randint(1, 16)
            e = rng.choice([lambda x: x * c + rng.choice(leaves), lambda x: x // c,
                            lambda x: x % c, lambda x: x + c, lambda x: x - rng.choice(leaves)])(e)
        out.append(e)
    return (i, j, k), out


@bench("simplify", "expressions")
def simplify_exprs():
    (i, j, k), exprs = _random_index_exprs(300)

    def run():
        ana = Analyzer()
        for v, ext in ((i, 8), (j, 32), (k, 4)):
            ana.bind(v, Range(0, ext))
        for e in exprs:
            ana.simplify(e)
    return len(exprs), run


@bench("detect_iter_map", "maps")
def iter_maps():
    i, j, k = tir.Var("i"), tir.Var("j"), tir.Var("k")
    doms = {i: Range(0, 8), j: Range(0, 32), k: Range(0, 4)}
    fused = (i * 32 + j) * 4 + k
    cases = [[fused // 128, fused % 128 // 4, fused % 4], [i * 4 + k, j], [fused]] * 20

    def run():
        for idx in cases:
            detect_iter_map(idx, doms)
    return len(cases), run
