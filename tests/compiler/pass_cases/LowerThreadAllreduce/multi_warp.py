# 128 threads of threadIdx.x (4 warps): TVM's two-stage warp reduction. Each warp shuffles down
# 16..1, lane 0 of warp w stores its partial in red_buf1_0[w], a barrier, then every warp reads
# red_buf1_0[lane % 4], shuffles down 2 and 1 within segments of 4 lanes and broadcasts lane 0;
# a last barrier lets the buffer be reused
from tvm.script import tir as T


@T.prim_func
def main(A: T.Buffer((128,), "float32"), B: T.Buffer((1,), "float32")):
    tx = T.launch_thread("threadIdx.x", 128)
    red = T.allocate([1], "float32", "local")
    red_1 = T.Buffer((1,), data=red, scope="local")
    with T.attr(T.comm_reducer(lambda x, y: x + y, [T.float32(0)]), "reduce_scope", T.reinterpret("handle", T.uint64(0))):
        T.tvm_thread_allreduce(T.uint32(1), A[tx], T.bool(True), red_1[0], tx)
    if tx == 0:
        B[0] = red_1[0]

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((128,), "float32"), B: T.Buffer((1,), "float32")):
        tx = T.env_thread("threadIdx.x")
        T.launch_thread(tx, 128)
        red = T.allocate([1], "float32", "local")
        red_1 = T.Buffer((1,), data=red, scope="local")
        with T.allocate([4], "float32", "shared") as red_buf1_0:
            mask_1: T.uint32 = T.tvm_warp_activemask()
            red_1_0_0: T.float32 = A[tx]
            other_1w_0_1: T.float32 = T.tvm_warp_shuffle_down(mask_1, red_1_0_0, 16, 32, 32)
            red_1w_0_1: T.float32 = red_1_0_0 + other_1w_0_1
            other_1w_0_2: T.float32 = T.tvm_warp_shuffle_down(mask_1, red_1w_0_1, 8, 32, 32)
            red_1w_0_2: T.float32 = red_1w_0_1 + other_1w_0_2
            other_1w_0_3: T.float32 = T.tvm_warp_shuffle_down(mask_1, red_1w_0_2, 4, 32, 32)
            red_1w_0_3: T.float32 = red_1w_0_2 + other_1w_0_3
            other_1w_0_4: T.float32 = T.tvm_warp_shuffle_down(mask_1, red_1w_0_3, 2, 32, 32)
            red_1w_0_4: T.float32 = red_1w_0_3 + other_1w_0_4
            other_1w_0_5: T.float32 = T.tvm_warp_shuffle_down(mask_1, red_1w_0_4, 1, 32, 32)
            red_1w_0_5: T.float32 = red_1w_0_4 + other_1w_0_5
            red_buf1_0_1 = T.Buffer((4,), data=red_buf1_0, scope="shared")
            if tx % 32 == 0:
                red_buf1_0_1[tx // 32] = red_1w_0_5
            T.tvm_storage_sync("shared")
            mask_1b: T.uint32 = T.tvm_warp_activemask()
            part_1_0: T.float32 = red_buf1_0_1[tx % 32 % 4]
            other_1p_0_1: T.float32 = T.tvm_warp_shuffle_down(mask_1b, part_1_0, 2, 4, 32)
            red_1p_0_1: T.float32 = part_1_0 + other_1p_0_1
            other_1p_0_2: T.float32 = T.tvm_warp_shuffle_down(mask_1b, red_1p_0_1, 1, 4, 32)
            red_1p_0_2: T.float32 = red_1p_0_1 + other_1p_0_2
            red_1[0] = T.tvm_warp_shuffle(mask_1b, red_1p_0_2, 0, 4, 32)
            T.tvm_storage_sync("shared")
        if tx == 0:
            B[0] = red_1[0]
