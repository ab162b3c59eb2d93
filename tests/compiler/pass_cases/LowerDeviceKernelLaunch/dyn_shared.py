# a shared.dyn allocation adds the dynamic shared memory size (bytes) as the last launch arg
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((256,), "float32")):
        Module.main_kernel(A.data)

    @T.prim_func(private=True)
    def main_kernel(A: T.handle("float32", "global")):
        T.func_attr({"target": T.target("cuda"), "tir.is_global_func": True, "tir.noalias": True})
        A_1 = T.decl_buffer((256,), data=A)
        tx = T.launch_thread("threadIdx.x", 256)
        buf = T.allocate([256], "float32", "shared.dyn")
        buf_1 = T.Buffer((256,), data=buf, scope="shared.dyn")
        buf_1[tx] = A_1[tx]
        A_1[tx] = buf_1[255 - tx]

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((256,), "float32")):
        T.call_packed("main_kernel", A.data, 256, 1024)

    @T.prim_func
    def main_kernel(A: T.handle("float32", "global")):
        T.func_attr({"calling_conv": 2, "target": {"kind": "cuda"}, "tir.is_global_func": True, "tir.kernel_launch_params": ["threadIdx.x", "tir.use_dyn_shared_memory"], "tir.noalias": True})
        A_1 = T.decl_buffer((256,), data=A)
        tx = T.env_thread("threadIdx.x")
        T.launch_thread(tx, 256)
        buf = T.allocate([256], "float32", "shared.dyn")
        buf_1 = T.Buffer((256,), data=buf, scope="shared.dyn")
        buf_1[tx] = A_1[tx]
        A_1[tx] = buf_1[255 - tx]
