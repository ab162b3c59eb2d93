# two regions give two kernels with fresh names; host code between them stays on the host
from tvm.script import tir as T


@T.prim_func
def main(A: T.Buffer((32,), "float32"), B: T.Buffer((32,), "float32")):
    T.func_attr({"global_symbol": "f"})
    with T.attr(T.target("cuda"), "target", 0):
        tx = T.launch_thread("threadIdx.x", 32)
        A[tx] = T.float32(1)
    with T.attr(T.target("cuda"), "target", 0):
        tx2 = T.launch_thread("threadIdx.x", 32)
        B[tx2] = A[tx2] * T.float32(2)

# output
@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((32,), "float32"), B: T.Buffer((32,), "float32")):
        cls.f_kernel(A.data)
        cls.f_kernel_1(A.data, B.data)

    @T.prim_func(private=True)
    def f_kernel(A: T.handle("float32", "global")):
        T.func_attr({"target": {"kind": "cuda"}, "tir.is_global_func": True, "tir.noalias": True})
        A_1 = T.decl_buffer((32,), data=A)
        tx = T.env_thread("threadIdx.x")
        T.launch_thread(tx, 32)
        A_1[tx] = T.float32(1.0)

    @T.prim_func(private=True)
    def f_kernel_1(A: T.handle("float32", "global"), B: T.handle("float32", "global")):
        T.func_attr({"target": {"kind": "cuda"}, "tir.is_global_func": True, "tir.noalias": True})
        B_1 = T.decl_buffer((32,), data=B)
        A_1 = T.decl_buffer((32,), data=A)
        tx2 = T.env_thread("threadIdx.x")
        T.launch_thread(tx2, 32)
        B_1[tx2] = A_1[tx2] * T.float32(2.0)
