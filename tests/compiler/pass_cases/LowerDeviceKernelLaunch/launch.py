# the kernel call becomes a packed launch with the block/grid extents in the caller's terms
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((1024,), "float32"), n: T.int32):
        Module.main_kernel(A.data, n)

    @T.prim_func(private=True)
    def main_kernel(A: T.handle("float32", "global"), n: T.int32):
        T.func_attr({"target": T.target("cuda"), "tir.is_global_func": True, "tir.noalias": True})
        A_1 = T.decl_buffer((1024,), data=A)
        bx = T.launch_thread("blockIdx.x", n // 128)
        tx = T.launch_thread("threadIdx.x", 128)
        A_1[bx * 128 + tx] = T.float32(0)

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((1024,), "float32"), n: T.int32):
        T.call_packed("main_kernel", A.data, n, n // 128, 128)

    @T.prim_func
    def main_kernel(A: T.handle("float32", "global"), n: T.int32):
        T.func_attr({"calling_conv": 2, "target": {"kind": "cuda"}, "tir.is_global_func": True, "tir.kernel_launch_params": ["blockIdx.x", "threadIdx.x"], "tir.noalias": True})
        A_1 = T.decl_buffer((1024,), data=A)
        bx = T.env_thread("blockIdx.x")
        T.launch_thread(bx, n // 128)
        tx = T.env_thread("threadIdx.x")
        T.launch_thread(tx, 128)
        A_1[bx * 128 + tx] = T.float32(0.0)
