# a single dynamic buffer is already one block: unchanged
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def main_kernel(A: T.handle("float32", "global")):
        T.func_attr({"target": T.target("cuda"), "tir.is_global_func": True, "tir.noalias": True})
        A_1 = T.decl_buffer((64,), data=A)
        tx = T.launch_thread("threadIdx.x", 64)
        x = T.allocate([64], "float32", "shared.dyn")
        x_1 = T.Buffer((64,), data=x, scope="shared.dyn")
        x_1[tx] = A_1[tx]
        A_1[tx] = x_1[63 - tx]

# output
@I.ir_module
class Module:
    @T.prim_func
    def main_kernel(A: T.handle("float32", "global")):
        T.func_attr({"target": {"kind": "cuda"}, "tir.is_global_func": True, "tir.noalias": True})
        A_1 = T.decl_buffer((64,), data=A)
        tx = T.env_thread("threadIdx.x")
        T.launch_thread(tx, 64)
        x = T.allocate([64], "float32", "shared.dyn")
        x_1 = T.Buffer((64,), data=x, scope="shared.dyn")
        x_1[tx] = A_1[tx]
        A_1[tx] = x_1[63 - tx]
