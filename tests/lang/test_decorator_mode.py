"""Decorator mode (seed 001): when Python runs ``@T.prim_func`` from ``tirkit.lang``, the
function's source is parsed with its globals and closure (F1 closure capture, F4 host helpers)."""
import pytest

from tirkit.ir import structural_equal
from tirkit.ir.diagnostics import DiagnosticError
from tirkit.lang import from_source
from tirkit.lang import tir as T
from tirkit.tir import PrimFunc

LITERAL = '''
from tvm.script import tir as T

@T.prim_func
def matmul(A: T.Buffer((64, 32), "float32"), B: T.Buffer((32, 48), "float32"),
           C: T.Buffer((64, 48), "float32")):
    for i, j, k in T.grid(64, 48, 32):
        with T.block("C"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
'''


def gen_matmul(n, m, k):
    @T.prim_func
    def matmul(A: T.Buffer((n, k), "float32"), B: T.Buffer((k, m), "float32"),
               C: T.Buffer((n, m), "float32")):
        for i, j, kk in T.grid(n, m, k):
            with T.block("C"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, kk])
                with T.init():
                    C[vi, vj] = T.float32(0)
                C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
    return matmul


def test_generator_with_closure_equals_literal_function():
    generated = gen_matmul(64, 48, 32)
    literal = from_source(LITERAL)
    assert isinstance(generated, PrimFunc)
    assert structural_equal(generated, literal)
    assert not structural_equal(gen_matmul(64, 48, 16), literal)


def add_scaled(x, scale):
    """A host Python helper called from inside a prim_func (seed 001 F4)."""
    return x * scale + T.float32(1)


@T.prim_func
def uses_helper(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
    for i in range(16):
        B[i] = add_scaled(A[i], T.float32(2))


def test_host_helper_is_called_at_parse_time():
    store = uses_helper.body.body
    assert type(store).__name__ == "BufferStore"
    assert type(store.value).__name__ == "Add"
    assert type(store.value.a).__name__ == "Mul"


def test_decorator_mode_errors_raise_diagnostic_error():
    with pytest.raises(DiagnosticError) as info:
        @T.prim_func
        def broken(A: T.Buffer((16,), "float32")):
            for i in range(16):
                A[i] = undefined_name + 1  # noqa: F821
        del broken
    assert "undefined_name" in str(info.value)
