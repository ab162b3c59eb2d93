"""``build(mod, target="cuda")``: a module callable like the CPU one. Argument checks (count,
dtype, shape, device) run before any GPU is needed and name the argument; without a GPU the
call raises CudaUnavailable with the reason; with one (tests marked ``gpu``) kernels match
NumPy for NumPy arrays (copied) and device arrays (zero copy)."""
import numpy as np
import pytest

from gpu_helpers import GPU_OK, needs_gpu
from tirkit.compiler import build
from tirkit.compiler.runtime.cuda import CudaUnavailable
from tirkit.lang import from_source

ADD = '''
from tvm.script import tir as T

@T.prim_func
def add(a: T.handle, b: T.handle, c: T.handle, n: T.int32):
    A = T.match_buffer(a, (n,))
    B = T.match_buffer(b, (n,))
    C = T.match_buffer(c, (n,))
    for bx in T.thread_binding((n + 127) // 128, thread="blockIdx.x"):
        for tx in T.thread_binding(128, thread="threadIdx.x"):
            with T.block("C"):
                T.where(bx * 128 + tx < n)
                vi = T.axis.spatial(n, bx * 128 + tx)
                C[vi] = A[vi] + B[vi]
'''


@pytest.fixture(scope="module")
def add_mod():
    return build(from_source(ADD), target="cuda")


def test_build_for_cuda_gives_ptx_and_a_callable_module(add_mod):
    assert add_mod.function_names == ["add"] and list(add_mod.kernels) == ["add_kernel"]
    assert ".visible .entry add_kernel(" in add_mod.ptx
    assert add_mod.get_source("ptx") == add_mod.ptx


class _FakeDeviceArray:
    """An array *description* only (no memory): what CuPy/PyTorch expose, so that the checks
    can be exercised on a machine without a GPU."""

    def __init__(self, shape, typestr="<f4", dlpack_device=None, device_id=0):
        self.__cuda_array_interface__ = {"shape": shape, "typestr": typestr,
                                         "data": (0x10000, False), "version": 3}
        self.device = type("Dev", (), {"id": device_id})()


def _read_only(a):
    out = a.copy()
    out.flags.writeable = False
    return out


def test_read_only_inputs_are_accepted(add_mod):
    """Only the output must be writeable: the check lets read-only inputs through (the call
    then runs, or says that no GPU is here)."""
    a, b, c = _read_only(np.ones(16, "float32")), _read_only(np.ones(16, "float32")), \
        np.zeros(16, "float32")
    if not GPU_OK:
        with pytest.raises(CudaUnavailable):
            add_mod(a, b, c, 16)
        return
    add_mod(a, b, c, 16)
    np.testing.assert_array_equal(c, np.full(16, 2, "float32"))


@pytest.mark.parametrize("args,message", [
    (lambda a: (a, a, a), r"add: expected 4 argument\(s\) \(a, b, c, n\), got 3"),
    (lambda a: (a, a, a.astype("float64"), 16), "argument c: expected dtype float32, got float64"),
    (lambda a: (a, a, np.zeros(8, "float32"), 16), r"argument c: expected shape\[0\] == n = 16 "
                                                    r"\(from n\), got 8"),
    (lambda a: (a, a, a.reshape(4, 4), 16), "argument c: expected ndim 1"),
    (lambda a: (a, a, _FakeDeviceArray((16,), device_id=1), 16),
     "argument c: expected an array on cuda:0, got an array on cuda:1"),
    (lambda a: (a, a, [1.0] * 16, 16), "argument c: expected a NumPy array, a CUDA array"),
    (lambda a: (a, a, a, 2 ** 40), "argument n: expected a int32 value"),
    (lambda a: (a, a, _read_only(a), 16), "argument c: expected a writeable array "
                                          r"\(the function writes c\), got a read-only array"),
])
def test_bad_arguments_are_named_without_touching_a_gpu(add_mod, args, message):
    a = np.zeros(16, "float32")
    with pytest.raises(ValueError, match=message):
        add_mod(*args(a))


def test_other_devices_are_named():
    class Rocm:
        def __dlpack__(self, stream=None):
            raise AssertionError("must not be read")

        def __dlpack_device__(self):
            return (10, 0)
    mod = build(from_source(ADD), target="cuda")
    a = np.zeros(16, "float32")
    with pytest.raises(ValueError, match=r"argument b: expected an array on the CUDA device "
                                         r"\(device_type 2\).*device_type 10 \(rocm\)"):
        mod(a, Rocm(), a, 16)


@pytest.mark.skipif(GPU_OK, reason="a GPU is present: the call runs")
def test_without_a_gpu_running_raises_a_clear_error(add_mod):
    a = np.zeros(16, "float32")
    with pytest.raises(CudaUnavailable, match="add: cannot run a CUDA kernel here: .*module.ptx"):
        add_mod(a, a, a, 16)


@needs_gpu
def test_numpy_arrays_are_copied_and_results_match(add_mod):
    rng = np.random.default_rng(0)
    for n in (1, 127, 1000):
        a, b = rng.random(n, dtype="float32"), rng.random(n, dtype="float32")
        c = np.zeros(n, "float32")
        add_mod(a, b, c, n)
        np.testing.assert_allclose(c, a + b, rtol=1e-6)


@needs_gpu
def test_device_arrays_are_used_in_place():
    torch = pytest.importorskip("torch")
    mod = build(from_source(ADD), target="cuda")
    a = torch.arange(300, dtype=torch.float32, device="cuda")
    c = torch.zeros(300, dtype=torch.float32, device="cuda")
    mod(a, a, c, 300)
    assert torch.equal(c, a * 2)


def test_building_a_gpu_kernel_for_the_cpu_names_the_threads():
    from tirkit.compiler.codegen.types import CodegenError  # pylint: disable=import-outside-toplevel

    with pytest.raises(CodegenError, match=r"function 'add' launches GPU threads \(blockIdx.x, "
                                           r"threadIdx.x\).*target='cuda'"):
        build(from_source(ADD), target="llvm")
