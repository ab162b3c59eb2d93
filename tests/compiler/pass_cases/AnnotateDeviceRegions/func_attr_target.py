# the function's own target attribute names the GPU (no target option given)
from tvm.script import tir as T


@T.prim_func
def main(A: T.Buffer((64,), "float32")):
    T.func_attr({"target": T.target("cuda")})
    for i in range(2):
        tx = T.launch_thread("threadIdx.x", 32)
        A[i * 32 + tx] = T.float32(1)

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((64,), "float32")):
        T.func_attr({"target": {"kind": "cuda"}})
        for i in range(2):
            T.attr({"kind": "cuda"}, "target", 0)
            tx = T.env_thread("threadIdx.x")
            T.launch_thread(tx, 32)
            A[i * 32 + tx] = T.float32(1.0)
