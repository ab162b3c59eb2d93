# flags: {"config": {"tirkit.target": "cuda -arch=sm_80"}}
# the outermost launch_thread starts the device region; the one inside stays inside it
from tvm.script import tir as T


@T.prim_func
def main(A: T.Buffer((1024,), "float32")):
    bx = T.launch_thread("blockIdx.x", 8)
    tx = T.launch_thread("threadIdx.x", 128)
    A[bx * 128 + tx] = T.float32(0)

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((1024,), "float32")):
        T.attr({"arch": "sm_80", "kind": "cuda"}, "target", 0)
        bx = T.env_thread("blockIdx.x")
        T.launch_thread(bx, 8)
        tx = T.env_thread("threadIdx.x")
        T.launch_thread(tx, 128)
        A[bx * 128 + tx] = T.float32(0.0)
