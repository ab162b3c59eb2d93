# no GPU target: nothing is annotated
from tvm.script import tir as T


@T.prim_func
def main(A: T.Buffer((32,), "float32")):
    tx = T.launch_thread("threadIdx.x", 32)
    A[tx] = T.float32(1)

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((32,), "float32")):
        tx = T.env_thread("threadIdx.x")
        T.launch_thread(tx, 32)
        A[tx] = T.float32(1.0)
