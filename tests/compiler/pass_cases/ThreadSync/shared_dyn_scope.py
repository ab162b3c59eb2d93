# with its default scope, shared, the pass leaves shared.dyn buffers alone (the pipeline runs
# it a second time for shared.dyn)
from tvm.script import tir as T


@T.prim_func
def main(A: T.Buffer((32,), "float32")):
    tx = T.launch_thread("threadIdx.x", 32)
    sh = T.allocate([32], "float32", "shared.dyn")
    sh_1 = T.Buffer((32,), data=sh, scope="shared.dyn")
    sh_1[tx] = A[tx]
    A[tx] = sh_1[31 - tx]

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((32,), "float32")):
        tx = T.env_thread("threadIdx.x")
        T.launch_thread(tx, 32)
        sh = T.allocate([32], "float32", "shared.dyn")
        sh_1 = T.Buffer((32,), data=sh, scope="shared.dyn")
        sh_1[tx] = A[tx]
        A[tx] = sh_1[31 - tx]
