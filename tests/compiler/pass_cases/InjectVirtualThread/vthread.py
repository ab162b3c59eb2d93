# each virtual thread runs in turn: the vthread axis becomes an unrolled loop
from tvm.script import tir as T


@T.prim_func
def main(A: T.Buffer((64,), "float32")):
    tx = T.launch_thread("threadIdx.x", 32)
    vx = T.env_thread("vthread.x")
    with T.attr(vx, "virtual_thread", 2):
        A[vx * 32 + tx] = T.float32(1)

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((64,), "float32")):
        tx = T.env_thread("threadIdx.x")
        T.launch_thread(tx, 32)
        for vx in T.unroll(2):
            A[vx * 32 + tx] = T.float32(1.0)
