"""Kernels take the caller's NumPy arrays in place (tirkit/compiler/runtime/packed.py, access.py,
ndarray.py; codegen/stmt.py's DLTensor data alignment, memory.py's TBAA tags): no staging copy
for arrays NumPy allocated or sliced, inputs are never written, a read-only output is refused
naming the argument (issue 15, item 5), and ``empty`` gives 64-byte-aligned arrays."""
import re

import numpy as np
import pytest

from tirkit.compiler import build, compile_module
from tirkit.compiler.runtime import ALLOC_ALIGNMENT, array, empty
from tirkit.compiler.runtime.access import written_args
from tirkit.lang import from_source

_SRC = '''
from tvm.script import tir as T
@T.prim_func
def axpy(A: T.Buffer((37,), "float32"), B: T.Buffer((37,), "float32"),
         C: T.Buffer((37,), "float32")):
    for i in range(37):
        with T.block("c"):
            vi = T.axis.spatial(37, i)
            C[vi] = A[vi] * T.float32(2) + B[vi]
'''

_EXTERN = '''
from tvm.script import tir as T
@T.prim_func
def fill(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
    T.evaluate(T.call_extern("int32", "memset", T.address_of(B[0]), 0, 32))
    T.evaluate(A[0])
'''


@pytest.fixture(scope="module")
def axpy():
    return build(from_source(_SRC))


def _unaligned(n, dtype="float32"):
    """A view whose first element is element-aligned but not 16-byte aligned."""
    base = np.zeros(n + 8, dtype=dtype)
    for k in range(8):
        view = base[k:k + n]
        if view.ctypes.data % 16:
            return base, view
    raise AssertionError("no unaligned view found")


def test_unaligned_views_are_read_and_written_in_place(axpy):
    a_base, a = _unaligned(37)
    b_base, b = _unaligned(37)
    c_base, c = _unaligned(37)
    a[:] = np.arange(37, dtype="float32")
    b[:] = 1.0
    a_before, b_before = a_base.copy(), b_base.copy()
    axpy(a, b, c)
    np.testing.assert_array_equal(c, np.arange(37, dtype="float32") * 2 + 1)
    np.testing.assert_array_equal(a_base, a_before)  # inputs untouched
    np.testing.assert_array_equal(b_base, b_before)
    untouched = np.ones(len(c_base), bool)
    start = (c.ctypes.data - c_base.ctypes.data) // 4
    untouched[start:start + 37] = False
    assert not np.any(c_base[untouched])  # nothing written outside the view


def test_read_only_output_is_refused_naming_the_argument(axpy):
    a, b = np.ones(37, "float32"), np.ones(37, "float32")
    out = np.full(37, 5.0, "float32")
    out.flags.writeable = False
    with pytest.raises(ValueError, match=r"axpy: argument C: expected a writeable array"):
        axpy(a, b, out)
    assert np.all(out == 5.0)


def test_read_only_inputs_are_accepted(axpy):
    a, b = np.ones(37, "float32"), np.full(37, 3.0, "float32")
    a.flags.writeable = False
    b.flags.writeable = False
    c = np.zeros(37, "float32")
    axpy(a, b, c)
    assert np.all(c == 5.0)


def test_read_only_dlpack_output_is_refused(axpy):
    out = np.zeros(37, "float32")
    out.flags.writeable = False

    class Wrapper:  # a DLPack producer over a read-only buffer
        def __dlpack__(self, **kwargs):
            return out.__dlpack__(**kwargs)

        def __dlpack_device__(self):
            return out.__dlpack_device__()

    with pytest.raises(ValueError, match="argument C: expected a writeable array"):
        axpy(np.ones(37, "float32"), np.ones(37, "float32"), Wrapper())


def test_written_args_of_stores_and_pointer_calls():
    lowered = compile_module(from_source(_SRC)).lowered
    assert written_args(lowered["axpy"]) == frozenset({2})
    lowered = compile_module(from_source(_EXTERN)).lowered
    assert written_args(lowered["fill"]) == frozenset({1})


def test_external_data_is_not_assumed_64_byte_aligned_and_buffers_get_tbaa():
    ir_text = compile_module(from_source(_SRC), opt_level=0).llvm_ir
    assert "llvm.assume" not in ir_text
    names = set(re.findall(r'!\{!"([ABC])#\d+", ![0-9]+, i64 0\}', ir_text))
    assert names == {"A", "B", "C"}
    for op in ("load float", "store float"):
        assert all("!tbaa" in line for line in ir_text.splitlines() if op in line)


@pytest.mark.parametrize("shape, dtype", [((3, 5), "float32"), (7, "int8"), ((0,), "float64")])
def test_empty_is_aligned_and_contiguous(shape, dtype):
    out = empty(shape, dtype)
    assert out.size == 0 or out.ctypes.data % ALLOC_ALIGNMENT == 0
    assert out.flags.c_contiguous and out.flags.writeable
    assert out.shape == ((shape,) if isinstance(shape, int) else shape)
    assert out.dtype == np.dtype(dtype)
    copy = array(np.arange(10, dtype="int16"))
    assert copy.ctypes.data % 64 == 0 and list(copy) == list(range(10))


def test_empty_rejects_bad_alignment_and_extents():
    with pytest.raises(ValueError, match="power of two"):
        empty(4, "float32", align=48)
    with pytest.raises(ValueError, match="non-negative"):
        empty((2, -1))


def test_fast_path_for_static_signatures_and_fallback_for_the_rest(axpy):
    fn = axpy["axpy"]
    assert fn._fast is not None  # pylint: disable=protected-access
    a = np.ones(37, "float32")
    assert fn._fast.accepts((a, a, np.zeros(37, "float32")))  # pylint: disable=protected-access
    strided = np.zeros(74, "float32")[::2]  # not contiguous: the general path's error
    assert not fn._fast.accepts((a, a, strided))  # pylint: disable=protected-access
    with pytest.raises(ValueError, match="argument C: expected a compact"):
        fn(a, a, strided)
    with pytest.raises(ValueError, match="argument A: expected dtype float32, got float64"):
        fn(np.ones(37), a, np.zeros(37, "float32"))


def test_fast_path_reads_each_views_own_data_pointer(axpy):
    # the fast path reads PyArrayObject.data from the object: a view's, not its base's
    from tirkit.compiler.runtime import fastcall  # pylint: disable=import-outside-toplevel

    assert fastcall._DATA is None or fastcall._DATA == 2 * np.dtype(np.intp).itemsize  # pylint: disable=protected-access
    base, view = _unaligned(37)
    base[:] = np.arange(base.size)
    a, c = np.arange(37, dtype="float32"), np.zeros(37, "float32")
    axpy(a, view, c)
    np.testing.assert_array_equal(c, 2 * a + view)
    again = np.zeros(37, "float32")
    axpy(view, a, again)  # the same function, other objects in the same places
    np.testing.assert_array_equal(again, 2 * view + a)


def test_fast_path_calls_from_many_threads_keep_their_own_arguments(axpy):
    # each thread calls through a frame of its own: concurrent calls (the kernel runs without
    # the GIL) must not see each other's data pointers
    import threading  # pylint: disable=import-outside-toplevel

    errors = []

    def work(seed):
        rng = np.random.default_rng(seed)
        for _ in range(300):
            a, b = (rng.standard_normal(37).astype("float32") for _ in range(2))
            c = np.empty(37, "float32")
            axpy(a, b, c)
            if not np.array_equal(c, a * np.float32(2) + b):
                errors.append(seed)
                return

    import sys  # pylint: disable=import-outside-toplevel

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads switch between any two bytecodes, mid-call included
    try:
        threads = [threading.Thread(target=work, args=(s,)) for s in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert not errors
