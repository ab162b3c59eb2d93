# 8 lanes of threadIdx.x (a power of two <= 32): shuffle-down rounds 4, 2, 1, then lane 0 of each
# 8-lane segment is broadcast
from tvm.script import tir as T


@T.prim_func
def main(A: T.Buffer((8,), "float32"), B: T.Buffer((1,), "float32")):
    tx = T.launch_thread("threadIdx.x", 8)
    red = T.allocate([1], "float32", "local")
    red_1 = T.Buffer((1,), data=red, scope="local")
    with T.attr(T.comm_reducer(lambda x, y: x + y, [T.float32(0)]), "reduce_scope", T.reinterpret("handle", T.uint64(0))):
        T.tvm_thread_allreduce(T.uint32(1), A[tx], T.bool(True), red_1[0], tx)
    B[0] = red_1[0]

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((8,), "float32"), B: T.Buffer((1,), "float32")):
        tx = T.env_thread("threadIdx.x")
        T.launch_thread(tx, 8)
        red = T.allocate([1], "float32", "local")
        red_1 = T.Buffer((1,), data=red, scope="local")
        with T.LetStmt(T.tvm_warp_activemask()) as mask_1:
            red_1_0_0: T.float32 = A[tx]
            other_1_0_1: T.float32 = T.tvm_warp_shuffle_down(mask_1, red_1_0_0, 4, 8, 32)
            red_1_0_1: T.float32 = red_1_0_0 + other_1_0_1
            other_1_0_2: T.float32 = T.tvm_warp_shuffle_down(mask_1, red_1_0_1, 2, 8, 32)
            red_1_0_2: T.float32 = red_1_0_1 + other_1_0_2
            other_1_0_3: T.float32 = T.tvm_warp_shuffle_down(mask_1, red_1_0_2, 1, 8, 32)
            red_1_0_3: T.float32 = red_1_0_2 + other_1_0_3
            red_1[0] = T.tvm_warp_shuffle(mask_1, red_1_0_3, 0, 8, 32)
        B[0] = red_1[0]
