"""The NVPTX code generator on small kernels: address spaces, dynamic shared memory, float16 and
bfloat16 arithmetic, 64-bit and 16-bit warp shuffles, math through libdevice, launch bounds, and
clear errors for what a GPU kernel cannot do. Every PTX produced is checked by ptxas."""
import pytest

from gpu_helpers import validate
from tirkit.compiler.codegen.types import CodegenError
from tirkit.compiler.driver import compile_module
from tirkit.lang import from_source

HEAD = "from tvm.script import tir as T\n\n"


def ptx(src, arch="sm_80"):
    compiled = compile_module(from_source(HEAD + src), f"cuda -arch={arch}")
    validate(compiled.ptx, arch)
    return compiled


def test_two_dynamic_shared_buffers_share_the_extern_block():
    c = ptx('''
@T.prim_func
def dyn(A: T.Buffer((128,), "float32"), B: T.Buffer((64,), "float16")):
    tx = T.launch_thread("threadIdx.x", 64)
    x = T.allocate([128], "float32", "shared.dyn")
    y = T.allocate([64], "float16", "shared.dyn")
    x_1 = T.Buffer((128,), data=x, scope="shared.dyn")
    y_1 = T.Buffer((64,), "float16", data=y, scope="shared.dyn")
    x_1[tx] = A[tx]
    x_1[tx + 64] = A[tx + 64]
    y_1[tx] = B[tx]
    A[tx] = x_1[127 - tx] + T.Cast("float32", y_1[63 - tx])
''')
    assert ".extern .shared .align 16 .b8 __tirkit_dyn_shmem[]" in c.ptx
    launch = c.lowered["dyn"].body
    assert 'T.call_packed("dyn_kernel"' in launch.script() and "640" in launch.script()
    assert c.ptx.count("bar.sync") == 1  # ThreadSync for shared.dyn: between stores and loads


def test_float16_and_bfloat16_arithmetic_and_math():
    c = ptx('''
@T.prim_func
def half(A: T.Buffer((32,), "float16"), B: T.Buffer((32,), "bfloat16"), C: T.Buffer((32,), "float16")):
    tx = T.launch_thread("threadIdx.x", 32)
    C[tx] = A[tx] * A[tx] + T.exp(A[tx]) + T.Cast("float16", B[tx] * B[tx])
''')
    assert "fma.rn.f16" in c.ptx  # float16 computed natively (sm_53+), the multiply-add fused


@pytest.mark.parametrize("dtype", ["float64", "int64", "float16", "int32"])
def test_warp_shuffles_of_every_width(dtype):
    c = ptx(f'''
@T.prim_func
def shfl(A: T.Buffer((32,), "{dtype}")):
    tx = T.launch_thread("threadIdx.x", 32)
    A[tx] = T.tvm_warp_shuffle_down(T.tvm_warp_activemask(), A[tx], 1, 32, 32) + T.tvm_warp_shuffle(T.uint32(4294967295), A[tx], 0, 16, 32) + T.tvm_warp_shuffle_up(T.uint32(4294967295), A[tx], 2, 32, 32)
''')
    assert "shfl.sync.down" in c.ptx and "shfl.sync.idx" in c.ptx and "shfl.sync.up" in c.ptx


def test_libdevice_math_and_launch_bounds():
    c = ptx('''
@T.prim_func
def math(A: T.Buffer((256,), "float32"), B: T.Buffer((256,), "float64")):
    bx = T.launch_thread("blockIdx.x", 2)
    tx = T.launch_thread("threadIdx.x", 128)
    A[bx * 128 + tx] = T.tanh(A[bx * 128 + tx]) + T.sigmoid(A[bx * 128 + tx]) + T.sqrt(T.fabs(A[bx * 128 + tx]))
    B[bx * 128 + tx] = T.log(B[bx * 128 + tx]) + T.pow(B[bx * 128 + tx], T.float64(2.5))
''', arch="sm_90")
    assert ".maxntid 128" in c.ptx
    # libdevice is linked in: no external function is left for the driver to resolve
    assert "__nv_" not in c.ptx and ".extern .func" not in c.ptx


def test_warp_memory_lives_in_registers_and_moves_by_shuffles():
    c = ptx('''
@T.prim_func
def warp(A: T.Buffer((64,), "float32"), B: T.Buffer((64,), "float32")):
    tx = T.launch_thread("threadIdx.x", 32)
    w = T.allocate([64], "float32", "warp")
    w_1 = T.Buffer((64,), data=w, scope="warp")
    for x in range(2):
        w_1[tx * 2 + x] = A[tx * 2 + x]
    for x in range(2):
        B[tx * 2 + x] = w_1[(31 - tx) * 2 + x]
''')
    assert "shfl.sync.idx" in c.ptx and ".shared" not in c.ptx and ".local" not in c.ptx


def test_kernel_params_are_global_and_read_only_loads_use_the_texture_path():
    c = ptx('''
@T.prim_func
def copy(A: T.Buffer((64,), "float32"), B: T.Buffer((64,), "float32")):
    T.func_attr({"tir.noalias": True})
    tx = T.launch_thread("threadIdx.x", 64)
    B[tx] = A[tx]
''')
    assert "ld.global.nc" in c.ptx and "st.global" in c.ptx


@pytest.mark.parametrize("body,message", [
    ('''
    for i in T.parallel(4):
        A[tx * 4 + i] = T.float32(0)''', "is T.parallel inside a GPU kernel"),
    ('''
    x = T.allocate([tx + 1], "float32", "local")
    x_1 = T.Buffer((tx + 1,), data=x, scope="local")
    x_1[0] = T.float32(0)
    A[tx] = x_1[0]''', "needs a constant size"),
    ('''
    T.tvm_storage_sync("global")''', "across several blocks"),
])
def test_what_a_kernel_cannot_do_is_a_clear_error(body, message):
    src = '''
@T.prim_func
def bad(A: T.Buffer((512,), "float32")):
    bx = T.launch_thread("blockIdx.x", 2)
    tx = T.launch_thread("threadIdx.x", 64)''' + body + "\n"
    with pytest.raises(CodegenError, match=message):
        compile_module(from_source(HEAD + src), "cuda")


def test_a_module_without_kernels_is_a_clear_error():
    with pytest.raises(CodegenError, match="no GPU kernel"):
        compile_module(from_source(HEAD + '''
@T.prim_func
def cpu(A: T.Buffer((4,), "float32")):
    for i in range(4):
        A[i] = T.float32(0)
'''), "cuda")


def test_multiply_adds_contract_to_fma_as_in_tvm():
    # TVM's LLVM targets set AllowFPOpFusion=Fast (nvcc fuses by default too): without it a
    # GPU matmul ran every multiply-add as a rounded mul.rn + add.rn pair
    c = ptx('''
@T.prim_func
def axpy(A: T.Buffer((64,), "float32"), B: T.Buffer((64,), "float32"), C: T.Buffer((64,), "float64")):
    tx = T.launch_thread("threadIdx.x", 64)
    B[tx] = A[tx] * T.float32(3) + B[tx]
    C[tx] = C[tx] - T.Cast("float64", A[tx]) * C[tx]
''')
    assert "fma.rn.f32" in c.ptx and "fma.rn.f64" in c.ptx
    assert "mul.rn.f32" not in c.ptx and "add.rn.f32" not in c.ptx
    assert "contract" in c.llvm_ir  # the NVPTX IR; the CPU keeps LowerIntrin's llvm.fmuladd


def test_the_cpu_target_does_not_contract():
    compiled = compile_module(from_source(HEAD + '''
@T.prim_func
def axpy(A: T.Buffer((64,), "float32"), B: T.Buffer((64,), "float32")):
    for i in range(64):
        B[i] = A[i] * T.float32(3) + B[i]
'''), "llvm")
    assert "contract" not in compiled.llvm_ir and "llvm.fmuladd" in compiled.llvm_ir
