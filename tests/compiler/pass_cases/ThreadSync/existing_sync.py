# a barrier already there is kept and no second one is added; a divergent branch gets none
# inside it (the barrier goes before the whole if)
from tvm.script import tir as T


@T.prim_func
def main(A: T.Buffer((64,), "float32"), B: T.Buffer((1,), "float32")):
    tx = T.launch_thread("threadIdx.x", 64)
    sh = T.allocate([64], "float32", "shared")
    sh_1 = T.Buffer((64,), data=sh, scope="shared")
    sh_1[tx] = A[tx]
    T.tvm_storage_sync("shared")
    if tx < 32:
        sh_1[tx] = sh_1[tx] + sh_1[tx + 32]
    if tx == 0:
        B[0] = sh_1[0] + sh_1[1]

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((64,), "float32"), B: T.Buffer((1,), "float32")):
        tx = T.env_thread("threadIdx.x")
        T.launch_thread(tx, 64)
        sh = T.allocate([64], "float32", "shared")
        sh_1 = T.Buffer((64,), data=sh, scope="shared")
        sh_1[tx] = A[tx]
        T.tvm_storage_sync("shared")
        if tx < 32:
            sh_1[tx] = sh_1[tx] + sh_1[tx + 32]
        T.tvm_storage_sync("shared")
        if tx == 0:
            B[0] = sh_1[0] + sh_1[1]
