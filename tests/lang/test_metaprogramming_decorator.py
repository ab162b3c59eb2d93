"""Metaprogramming in decorator mode (issue 16, seed 001 F1-F3): Python runs the decorators, so
closures capture real values: a kernel generator over n/dtype/shape, T.macro with Python
closures, T.compute with Python lambdas, rank polymorphism."""
import numpy as np
import pytest

from tirkit.compiler import build
from tirkit.ir import assert_structural_equal
from tirkit.lang import tir as T

OFFSET = 10


def make_add(shape, dtype):
    """F1 + F2: the buffers' shape and dtype come from the caller; any rank."""
    @T.prim_func
    def add(A: T.Buffer(shape, dtype), B: T.Buffer(shape, dtype)):
        for *idx, in T.grid(*shape):
            with T.block("add"):
                v = T.axis.remap("S" * len(shape), idx)
                B[*v] = A[*v] + T.cast(OFFSET, dtype)
    return add


@pytest.mark.parametrize("shape, dtype", [((4,), "int32"), ((2, 3), "float32"),
                                          ((2, 2, 3), "int64")])
def test_generator_over_shape_and_dtype_runs(shape, dtype):
    func = make_add(shape, dtype)
    a = np.arange(int(np.prod(shape))).reshape(shape).astype(dtype)
    b = np.empty_like(a)
    build(func)(a, b)
    np.testing.assert_array_equal(b, a + OFFSET)


@T.macro
def bump(A, i, by):
    A[i] = A[i] + by


@T.macro(hygienic=False)
def bump_scale(A, i):
    A[i] = A[i] * scale  # resolved where the macro is used


def test_macros_in_decorator_mode():
    @T.prim_func
    def f(A: T.Buffer((6,), "float32")):
        scale = T.meta_var(T.float32(3))  # noqa: F841  (read by the non-hygienic macro)
        for i in T.serial(0, 6, 2):
            bump(A, i, T.float32(1))
            bump_scale(A, i)

    a = np.ones(6, "float32")
    build(f)(a)
    np.testing.assert_array_equal(a, [6, 1, 6, 1, 6, 1])


def test_macro_called_outside_a_prim_func_is_a_clear_error():
    with pytest.raises(RuntimeError, match="can only be called inside a @T.prim_func"):
        bump(None, 0, 1)


def test_t_compute_with_python_lambdas_matches_the_expanded_form():
    n = 16

    @T.prim_func
    def sugar(A: T.Buffer((n, n), "float32"), out: T.Buffer((n,), "float32")):
        k = T.reduce_axis((0, n), name="k")
        S = T.compute((n,), lambda i: T.sum(A[i, k] * T.float32(2), axis=k), name="S")
        for i in range(n):
            with T.block("copy"):
                vi = T.axis.spatial(n, i)
                out[vi] = S[vi]

    @T.prim_func
    def expanded(A: T.Buffer((16, 16), "float32"), out: T.Buffer((16,), "float32")):
        S = T.alloc_buffer((16,))
        for i, k in T.grid(16, 16):
            with T.block("S"):
                vi, vk = T.axis.remap("SR", [i, k])
                with T.init():
                    S[vi] = T.float32(0)
                S[vi] = S[vi] + A[vi, vk] * T.float32(2)
        for i in range(16):
            with T.block("copy"):
                vi = T.axis.spatial(16, i)
                out[vi] = S[vi]

    assert_structural_equal(sugar.with_attr("global_symbol", "f"),
                            expanded.with_attr("global_symbol", "f"))
    a = np.random.default_rng(0).random((16, 16), dtype="float32")
    o = np.empty(16, "float32")
    build(sugar)(a, o)
    np.testing.assert_allclose(o, 2 * a.sum(axis=1), rtol=1e-5)
