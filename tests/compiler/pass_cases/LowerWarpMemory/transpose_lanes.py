# 32 lanes each own 2 elements (m = 2) of a 64-element warp buffer: stores become local ones,
# a load of the element owned by lane 31 - tx becomes a shuffle from that lane
from tvm.script import tir as T


@T.prim_func
def main(A: T.Buffer((64,), "float32"), B: T.Buffer((64,), "float32")):
    tx = T.launch_thread("threadIdx.x", 32)
    w = T.allocate([64], "float32", "warp")
    w_1 = T.Buffer((64,), data=w, scope="warp")
    for x in range(2):
        w_1[tx * 2 + x] = A[tx * 2 + x]
    for x in range(2):
        B[tx * 2 + x] = w_1[(31 - tx) * 2 + x] + w_1[tx * 2 + x]

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((64,), "float32"), B: T.Buffer((64,), "float32")):
        tx = T.env_thread("threadIdx.x")
        T.launch_thread(tx, 32)
        w = T.allocate([2], "float32", "local")
        w_1 = T.Buffer((2,), data=w, scope="local")
        for x in range(2):
            w_1[x] = A[tx * 2 + x]
        for x in range(2):
            B[tx * 2 + x] = T.tvm_warp_shuffle(T.tvm_warp_activemask(), w_1[x], 31 - tx, 32, 32) + w_1[x]
