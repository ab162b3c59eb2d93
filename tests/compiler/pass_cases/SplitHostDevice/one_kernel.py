# the region becomes main_kernel; its free vars (A's data, n) are its params, handles first
from tvm.script import tir as T


@T.prim_func
def main(a: T.handle, n: T.int32):
    A = T.match_buffer(a, (1024,))
    with T.attr(T.target("cuda"), "target", 0):
        tx = T.launch_thread("threadIdx.x", 128)
        A[tx] = A[tx] + T.Cast("float32", n)

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((1024,), "float32"), n: T.int32):
        cls.main_kernel(A.data, n)

    @T.prim_func(private=True)
    def main_kernel(A: T.handle("float32", "global"), n: T.int32):
        T.func_attr({"target": {"kind": "cuda"}, "tir.is_global_func": True, "tir.noalias": True})
        A_1 = T.decl_buffer((1024,), data=A)
        tx = T.env_thread("threadIdx.x")
        T.launch_thread(tx, 128)
        A_1[tx] = A_1[tx] + T.Cast("float32", n)
