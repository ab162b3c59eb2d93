# shared tiles written, then read (a barrier before the reads), in a loop whose next iteration
# overwrites them (a barrier ends the body)
from tvm.script import tir as T


@T.prim_func
def main(A: T.Buffer((256,), "float32"), B: T.Buffer((32,), "float32")):
    tx = T.launch_thread("threadIdx.x", 32)
    acc = T.allocate([1], "float32", "local")
    acc_1 = T.Buffer((1,), data=acc, scope="local")
    sh = T.allocate([32], "float32", "shared")
    sh_1 = T.Buffer((32,), data=sh, scope="shared")
    acc_1[0] = T.float32(0)
    for k in range(8):
        sh_1[tx] = A[k * 32 + tx]
        acc_1[0] = acc_1[0] + sh_1[31 - tx]
    B[tx] = acc_1[0]

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((256,), "float32"), B: T.Buffer((32,), "float32")):
        tx = T.env_thread("threadIdx.x")
        T.launch_thread(tx, 32)
        acc = T.allocate([1], "float32", "local")
        sh = T.allocate([32], "float32", "shared")
        acc_1 = T.Buffer((1,), data=acc, scope="local")
        acc_1[0] = T.float32(0.0)
        for k in range(8):
            sh_1 = T.Buffer((32,), data=sh, scope="shared")
            sh_1[tx] = A[k * 32 + tx]
            T.tvm_storage_sync("shared")
            acc_1[0] = acc_1[0] + sh_1[31 - tx]
            T.tvm_storage_sync("shared")
        B[tx] = acc_1[0]
