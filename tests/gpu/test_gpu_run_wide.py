"""More kernels run on a real GPU and compared with NumPy (tests marked ``gpu``; without a GPU
each still builds its PTX, so a kernel that stops compiling fails here too): schedule-made
kernels (``split``/``bind``, ``cache_read`` into shared memory + ``compute_at``), dtypes other
than float32, libdevice math, dynamic shared memory, a warp-level ``tvm_thread_allreduce``
over ``threadIdx.x`` with several warps per block, and zero-copy CuPy arrays."""
import numpy as np
import pytest

from gpu_helpers import needs_gpu, run_or_check
from test_gpu_schedule import tiled_matmul_schedule
from tirkit.compiler import build
from tirkit.lang import from_source


@pytest.mark.parametrize("shared", [False, True], ids=["global", "shared-tiles"])
def test_scheduled_matmul_matches_numpy(shared):
    mod = build(tiled_matmul_schedule((0, 1) if shared else ()).mod, target="cuda")
    if shared:
        assert ".shared" in mod.ptx and "bar.sync" in mod.ptx
    rng = np.random.default_rng(1)
    a, b = (rng.uniform(-1, 1, (256, 256)).astype("float32") for _ in range(2))
    c = np.full((256, 256), np.nan, "float32")
    if run_or_check(mod, a, b, c):
        np.testing.assert_allclose(c, a.astype(np.float64) @ b, rtol=1e-4, atol=1e-4)


ELEMENTWISE = '''
from tvm.script import tir as T

@T.prim_func
def ew(A: T.Buffer((1000,), "{dt}"), B: T.Buffer((1000,), "{dt}"), C: T.Buffer((1000,), "{dt}")):
    T.func_attr({{"global_symbol": "ew", "tir.noalias": True}})
    for bx in T.thread_binding(8, thread="blockIdx.x"):
        for tx in T.thread_binding(128, thread="threadIdx.x"):
            with T.block("C"):
                T.where(bx * 128 + tx < 1000)
                vi = T.axis.spatial(1000, bx * 128 + tx)
                C[vi] = {expr}
'''

DTYPE_CASES = {
    "float16": ("A[vi] * B[vi] + A[vi]", lambda a, b: a * b + a, 2e-3),
    "float64": ("A[vi] * B[vi] - B[vi]", lambda a, b: a * b - b, 1e-12),
    "int32": ("A[vi] * B[vi] + T.int32(7)", lambda a, b: a * b + 7, 0),
    "int8": ("A[vi] + B[vi]", lambda a, b: (a.astype(np.int16) + b).astype(np.int8), 0),
    "uint16": ("T.max(A[vi], B[vi]) - T.min(A[vi], B[vi])",
               lambda a, b: np.maximum(a, b) - np.minimum(a, b), 0),
}


@pytest.mark.parametrize("dtype", sorted(DTYPE_CASES))
def test_dtypes_match_numpy(dtype):
    expr, ref, rtol = DTYPE_CASES[dtype]
    mod = build(from_source(ELEMENTWISE.format(dt=dtype, expr=expr)), target="cuda")
    rng = np.random.default_rng(2)
    if dtype.startswith("float"):
        a, b = (rng.uniform(-2, 2, 1000).astype(dtype) for _ in range(2))
    else:
        info = np.iinfo(dtype)
        lo, hi = max(info.min, -50), min(info.max, 50)
        a, b = (rng.integers(lo, hi, 1000).astype(dtype) for _ in range(2))
    c = np.zeros(1000, dtype)
    if run_or_check(mod, a, b, c):
        np.testing.assert_allclose(c.astype(np.float64), ref(a, b).astype(np.float64),
                                   rtol=rtol, atol=rtol)


MATH_CASES = {
    "exp": ("T.exp(A[vi])", np.exp), "log": ("T.log(T.fabs(A[vi]) + T.float32(1))",
                                             lambda a: np.log(np.abs(a) + 1)),
    "tanh": ("T.tanh(A[vi])", np.tanh), "sqrt": ("T.sqrt(T.fabs(A[vi]))",
                                                 lambda a: np.sqrt(np.abs(a))),
    "sigmoid": ("T.sigmoid(A[vi])", lambda a: 1 / (1 + np.exp(-a))),
    "pow": ("T.pow(T.fabs(A[vi]), T.float32(1.5))", lambda a: np.abs(a) ** 1.5),
    "erf": ("T.erf(A[vi])", None),
}


@pytest.mark.parametrize("name", sorted(MATH_CASES))
def test_math_matches_numpy(name):
    expr, ref = MATH_CASES[name]
    mod = build(from_source(ELEMENTWISE.format(dt="float32", expr=expr)), target="cuda")
    a = np.random.default_rng(3).uniform(-3, 3, 1000).astype("float32")
    c = np.zeros(1000, "float32")
    if not run_or_check(mod, a, a, c):
        return
    if ref is None:  # erf: NumPy has none; math.erf per element
        import math  # pylint: disable=import-outside-toplevel

        expected = np.array([math.erf(float(x)) for x in a])
    else:
        expected = ref(a.astype(np.float64))
    np.testing.assert_allclose(c, expected, rtol=1e-5, atol=1e-6)


DYN_SHARED = '''
from tvm.script import tir as T

@T.prim_func
def reverse_blocks(A: T.Buffer((1024,), "float32"), B: T.Buffer((1024,), "float32")):
    T.func_attr({"global_symbol": "reverse_blocks", "tir.noalias": True})
    bx = T.launch_thread("blockIdx.x", 8)
    tx = T.launch_thread("threadIdx.x", 128)
    buf = T.allocate([128], "float32", "shared.dyn")
    buf_1 = T.Buffer((128,), data=buf, scope="shared.dyn")
    buf_1[tx] = A[bx * 128 + tx]
    B[bx * 128 + tx] = buf_1[127 - tx]
'''


def test_dynamic_shared_memory_with_a_barrier():
    mod = build(from_source(DYN_SHARED), target="cuda")
    assert "bar.sync" in mod.ptx  # ThreadSync put the barrier between the write and the read
    a = np.arange(1024, dtype="float32")
    b = np.zeros(1024, "float32")
    if run_or_check(mod, a, b):
        np.testing.assert_array_equal(b, a.reshape(8, 128)[:, ::-1].ravel())


WARP_ALLREDUCE = '''
from tvm.script import tir as T

@T.prim_func
def row_max(A: T.Buffer((256, 64), "float32"), B: T.Buffer((256,), "float32")):
    T.func_attr({"global_symbol": "row_max", "tir.noalias": True})
    bx = T.launch_thread("blockIdx.x", 64)
    ty = T.launch_thread("threadIdx.y", 4)
    tx = T.launch_thread("threadIdx.x", 32)
    part = T.allocate([1], "float32", "local")
    part_1 = T.Buffer((1,), data=part, scope="local")
    red = T.allocate([1], "float32", "local")
    red_1 = T.Buffer((1,), data=red, scope="local")
    part_1[0] = T.max(A[bx * 4 + ty, tx], A[bx * 4 + ty, tx + 32])
    with T.attr(T.comm_reducer(lambda x, y: T.max(x, y), [T.min_value("float32")]), "reduce_scope", T.reinterpret("handle", T.uint64(0))):
        T.tvm_thread_allreduce(T.uint32(1), part_1[0], T.bool(True), red_1[0], tx)
    if tx == 0:
        B[bx * 4 + ty] = red_1[0]
'''


def test_warp_allreduce_with_several_warps_per_block():
    mod = build(from_source(WARP_ALLREDUCE), target="cuda")
    assert "shfl.sync" in mod.ptx
    a = np.random.default_rng(4).uniform(-1, 1, (256, 64)).astype("float32")
    b = np.full(256, np.nan, "float32")
    if run_or_check(mod, a, b):
        np.testing.assert_array_equal(b, a.max(axis=1))


@needs_gpu
def test_cupy_arrays_are_used_in_place():
    cupy = pytest.importorskip("cupy")
    mod = build(from_source(ELEMENTWISE.format(dt="float32", expr="A[vi] + B[vi]")),
                target="cuda")
    a = cupy.arange(1000, dtype=cupy.float32)
    c = cupy.zeros(1000, dtype=cupy.float32)
    mod(a, a, c)
    cupy.cuda.Device().synchronize()
    np.testing.assert_array_equal(cupy.asnumpy(c), 2 * np.arange(1000, dtype="float32"))
