"""The packed-call runtime (tirkit/compiler/runtime/packed.py, module.py): DLTensor marshalling of
NumPy arrays, argument checks before the call, and real compiled functions called end to end
(lowered by MakePackedAPI / LowerTVMBuiltin / LowerIntrin and the LLVM code generator)."""
import ctypes

import numpy as np
import pytest

from tirkit.compiler.runtime.packed import (ArgSpec, FuncSpec, PackedFunction, check_and_convert,
                                            dl_dtype, make_dltensor)
from tirkit.lang import from_source


def _fields(arg):
    t = arg.tensor
    shape = tuple(t.shape[i] for i in range(t.ndim))
    strides = tuple(t.strides[i] for i in range(t.ndim)) if t.strides else None
    return t, shape, strides


# ------------------------------------------------------------------------------ marshalling
@pytest.mark.parametrize("dtype, code, bits", [
    ("bool", 1, 1), ("float16", 2, 16), ("float32", 2, 32), ("float64", 2, 64),
    ("int8", 0, 8), ("int32", 0, 32), ("int64", 0, 64), ("uint8", 1, 8), ("uint64", 1, 64)])
def test_dltensor_of_contiguous_array(dtype, code, bits):
    arr = np.zeros((3, 5), dtype=dtype)
    arg = make_dltensor(arr)
    t, shape, strides = _fields(arg)
    assert (t.dtype.code, t.dtype.bits, t.dtype.lanes) == (code, bits, 1)
    assert dl_dtype(dtype) == (code, bits, 1)
    assert t.ndim == 2 and shape == (3, 5) and strides is None
    assert t.data == arr.ctypes.data and t.byte_offset == 0
    assert (t.device.device_type, t.device.device_id) == (1, 0)


def test_dltensor_of_sliced_view_has_element_strides():
    base = np.arange(60, dtype="float32").reshape(6, 10)
    view = base[1::2, 3:9:3]
    t, shape, strides = _fields(make_dltensor(view))
    assert shape == (3, 2)
    assert strides == (20, 3)
    assert t.byte_offset == 0
    assert t.data == base.ctypes.data + (1 * 10 + 3) * 4  # first element of the view
    first = ctypes.cast(t.data, ctypes.POINTER(ctypes.c_float))[0]
    assert first == view[0, 0]


def test_dltensor_constant_elem_offset_moves_into_byte_offset():
    arr = np.arange(8, dtype="int16")
    t, _, _ = _fields(make_dltensor(arr, elem_offset=3))
    assert t.byte_offset == 6
    assert t.data + t.byte_offset == arr.ctypes.data


def test_dltensor_misaligned_array_is_staged_and_written_back():
    raw = np.zeros(65, dtype="uint8")
    start = 1 if raw.ctypes.data % 64 == 0 else 0
    mis = raw[start:start + 64].view("float32")
    assert mis.ctypes.data % 64 != 0
    arg = make_dltensor(mis, align=64)
    assert arg.tensor.data % 64 == 0
    arg.array[:] = 7.0
    arg.write_back()
    assert np.all(mis == 7.0)


def test_dltensor_rejects_unsupported_dtype():
    with pytest.raises(ValueError, match="expected an array of bool, int, uint or float"):
        make_dltensor(np.zeros(3, dtype=complex))


# ---------------------------------------------------------------------------- checks
_SRC = '''
# from tvm.script import tir as T
@T.prim_func
def scale(a: T.handle, b: T.handle, n: T.int32, alpha: T.float32):
    T.func_attr({"global_symbol": "scale"})
    A = T.match_buffer(a, (n, 4), "float32")
    B = T.match_buffer(b, (n, 4), "float32")
    for i, j in T.grid(n, 4):
        B[i, j] = A[i, j] * alpha
'''


@pytest.fixture(name="spec")
def _spec():
    return FuncSpec.from_prim_func(from_source(_SRC))


@pytest.mark.parametrize("args, message", [
    (lambda a, b: (a, b, 3), "scale: expected 4 argument(s) (a, b, n, alpha), got 3"),
    (lambda a, b: (a, b, 4, 1.0), "scale: argument a: expected shape[0] == n = 4 (from n), got 3"),
    (lambda a, b: (a[0], b, 3, 1.0), "scale: argument a: expected ndim 2 (shape (n, 4)), got ndim 1"),
    (lambda a, b: (a.astype("float64"), b, 3, 1.0),
     "scale: argument a: expected dtype float32, got float64"),
    (lambda a, b: (a, np.zeros((3, 5), "float32"), 3, 1.0),
     "scale: argument b: expected shape[1] == 4, got 5"),
    (lambda a, b: (np.zeros((4, 3), "float32").T, b, 3, 1.0),
     "scale: argument a: expected a compact (C-contiguous) array, got strides (1, 3) (elements) "
     "for shape (3, 4)"),
    (lambda a, b: (np.zeros((3, 8), "float32")[:, ::2], b, 3, 1.0),
     "scale: argument a: expected a compact (C-contiguous) array, got strides (8, 2)"),
    (lambda a, b: (a, b, "3", 1.0), "scale: argument n: expected a int32 scalar, got str"),
    (lambda a, b: (a, b, 2**40, 1.0), "scale: argument n: expected a int32 value in"),
    (lambda a, b: (a, [1, 2], 3, 1.0),
     "scale: argument b: expected a NumPy array or an object with __dlpack__, got list"),
])
def test_bad_arguments_raise_value_error(spec, args, message):
    a, b = np.zeros((3, 4), "float32"), np.zeros((3, 4), "float32")
    with pytest.raises(ValueError) as info:
        check_and_convert(spec, args(a, b))
    assert message in str(info.value)


def test_symbolic_shape_consistent_across_arguments(spec):
    with pytest.raises(ValueError, match=r"argument b: expected shape\[0\] == n = 3 \(from n\), got 2"):
        check_and_convert(spec, (np.zeros((3, 4), "float32"), np.zeros((2, 4), "float32"), 3, 1.0))


def test_dlpack_objects_and_scalars_are_converted(spec):
    class Wrapped:
        def __init__(self, arr):
            self.arr = arr

        def __dlpack__(self, **kwargs):
            return self.arr.__dlpack__(**kwargs)

        def __dlpack_device__(self):
            return self.arr.__dlpack_device__()

    out = check_and_convert(spec, (Wrapped(np.ones((2, 4), "float32")),
                                   np.zeros((2, 4), "float32"), np.int64(2), 3))
    assert out[0].tensor.ndim == 2 and out[2] == 2 and out[3] == 3.0
    assert isinstance(out[3], float)


def test_non_cpu_dlpack_device_is_refused(spec):
    class OnGpu:
        def __dlpack__(self, **kwargs):
            raise AssertionError("must not be read")

        def __dlpack_device__(self):
            return (2, 0)

    with pytest.raises(ValueError, match="expected an array on the CPU .* got device_type 2"):
        check_and_convert(spec, (OnGpu(), np.zeros((2, 4), "float32"), 2, 1.0))


# -------------------------------------------------------------------------- end to end
def _codegen_ready():
    try:
        from tirkit.compiler import driver  # noqa: F401
        from tirkit.compiler.runtime import jit  # noqa: F401
        return True
    except ImportError:
        return False


needs_codegen = pytest.mark.skipif(not _codegen_ready(), reason="LLVM codegen/JIT not available")


@pytest.fixture(name="scale", scope="module")
def _scale():
    from tirkit.compiler import driver

    return driver.build(from_source(_SRC))


@needs_codegen
def test_end_to_end_call(scale):
    a = np.random.default_rng(0).random((5, 4), dtype="float32")
    b = np.zeros((5, 4), "float32")
    assert scale(a, b, 5, 2.5) is None
    np.testing.assert_allclose(b, a * 2.5, rtol=1e-6)
    assert scale.function_names == ["scale"] and "scale" in scale


@needs_codegen
def test_end_to_end_symbolic_spec_read_back_from_lowered_ir(scale):
    spec = scale["scale"].spec
    assert [(a.name, str(a.dtype)) for a in spec.args] == [
        ("a", "handle"), ("b", "handle"), ("n", "int32"), ("alpha", "float32")]
    assert [str(a.buffer.dtype) for a in spec.args[:2]] == ["float32", "float32"]


@needs_codegen
def test_end_to_end_bad_argument_raises_before_call(scale):
    with pytest.raises(ValueError, match="argument b: expected shape"):
        scale(np.zeros((5, 4), "float32"), np.zeros((4, 4), "float32"), 5, 1.0)


@needs_codegen
def test_end_to_end_compiled_check_raises_runtime_error(scale):
    # A spec without buffers lets a wrong array through to the compiled asserts.
    fn = scale["scale"]
    loose = FuncSpec("scale", tuple(ArgSpec(a.name, a.dtype) for a in fn.spec.args))
    raw = PackedFunction(scale.jit.get_function_address("scale"), loose, owner=scale)
    with pytest.raises(RuntimeError, match=r"scale\.a\.ndim is expected to equal 2"):
        raw(np.zeros(4, "float32"), np.zeros((1, 4), "float32"), 1, 1.0)
    with pytest.raises(RuntimeError, match=r"scale\.b\.dtype is expected to be float32"):
        raw(np.zeros((1, 4), "float32"), np.zeros((1, 4), "int32"), 1, 1.0)


@needs_codegen
def test_end_to_end_math_and_workspace():
    from tirkit.compiler import driver

    src = '''
# from tvm.script import tir as T
@T.prim_func
def main(a: T.handle, b: T.handle, n: T.int32):
    A = T.match_buffer(a, (n,), "float32")
    B = T.match_buffer(b, (n,), "int32")
    tmp = T.alloc_buffer((n,), "float32")
    for i in range(n):
        with T.block("t"):
            vi = T.axis.remap("S", [i])
            tmp[vi] = T.sigmoid(A[vi]) + T.tanh(A[vi]) + T.erf(A[vi])
    for i in range(n):
        with T.block("o"):
            vi = T.axis.remap("S", [i])
            A[vi] = tmp[vi]
            B[vi] = T.floordiv(vi - 7, 3) + T.floormod(vi - 7, 3)
'''
    mod = driver.build(from_source(src))
    import math

    x = np.linspace(-3, 3, 33).astype("float32")
    a, b = x.copy(), np.zeros(33, "int32")
    mod(a, b, 33)
    expect = [1 / (1 + math.exp(-v)) + math.tanh(v) + math.erf(v) for v in x.astype(float)]
    np.testing.assert_allclose(a, expect, rtol=1e-5, atol=1e-6)
    i = np.arange(33) - 7
    np.testing.assert_array_equal(b, i // 3 + i % 3)
