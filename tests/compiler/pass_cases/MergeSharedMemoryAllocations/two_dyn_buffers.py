# a float32 and an int8 dynamic buffer share one uint8 allocation: 128 float32 at byte 0, 40
# int8 at byte 512 (16-byte aligned); the static shared buffer is left alone
from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def main_kernel(A: T.handle("float32", "global"), B: T.handle("int8", "global")):
        T.func_attr({"target": T.target("cuda"), "tir.is_global_func": True, "tir.noalias": True})
        A_1 = T.decl_buffer((128,), data=A)
        B_1 = T.decl_buffer((40,), "int8", data=B)
        tx = T.launch_thread("threadIdx.x", 128)
        x = T.allocate([128], "float32", "shared.dyn")
        y = T.allocate([40], "int8", "shared.dyn")
        z = T.allocate([4], "float32", "shared")
        x_1 = T.Buffer((128,), data=x, scope="shared.dyn")
        y_1 = T.Buffer((40,), "int8", data=y, scope="shared.dyn")
        z_1 = T.Buffer((4,), data=z, scope="shared")
        x_1[tx] = A_1[tx]
        if tx < 40:
            y_1[tx] = B_1[tx]
        z_1[0] = x_1[0]
        A_1[tx] = x_1[127 - tx] + T.Cast("float32", y_1[tx % 40]) + z_1[0]

# output
@I.ir_module
class Module:
    @T.prim_func
    def main_kernel(A: T.handle("float32", "global"), B: T.handle("int8", "global")):
        T.func_attr({"target": {"kind": "cuda"}, "tir.is_global_func": True, "tir.noalias": True})
        buf_dyn_shmem = T.allocate([560], "uint8", "shared.dyn")
        A_1 = T.decl_buffer((128,), data=A)
        B_1 = T.decl_buffer((40,), "int8", data=B)
        tx = T.env_thread("threadIdx.x")
        T.launch_thread(tx, 128)
        z = T.allocate([4], "float32", "shared")
        x_1 = T.Buffer((128,), data=buf_dyn_shmem, scope="shared.dyn")
        x_1[tx] = A_1[tx]
        y_1 = T.Buffer((40,), "int8", data=buf_dyn_shmem, elem_offset=512, scope="shared.dyn")
        if tx < 40:
            y_1[tx] = B_1[tx]
        z_1 = T.Buffer((4,), data=z, scope="shared")
        z_1[0] = x_1[0]
        A_1[tx] = x_1[127 - tx] + T.Cast("float32", y_1[tx % 40]) + z_1[0]
