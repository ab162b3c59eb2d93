# 6 threads on threadIdx.y in 4 groups of threadIdx.x: a shared buffer of 4 x 6 values, the
# extent folded to 4, then rounds of 2 and 1 with a sync after each; the condition gates values
from tvm.script import tir as T


@T.prim_func
def main(A: T.Buffer((24,), "float32"), B: T.Buffer((4,), "float32")):
    tx = T.launch_thread("threadIdx.x", 4)
    ty = T.launch_thread("threadIdx.y", 6)
    red = T.allocate([1], "float32", "local")
    red_1 = T.Buffer((1,), data=red, scope="local")
    with T.attr(T.comm_reducer(lambda x, y: T.max(x, y), [T.float32(-3.0e38)]), "reduce_scope", T.reinterpret("handle", T.uint64(0))):
        T.tvm_thread_allreduce(T.uint32(1), A[ty * 4 + tx], ty < 5, red_1[0], ty)
    B[tx] = red_1[0]

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((24,), "float32"), B: T.Buffer((4,), "float32")):
        tx = T.env_thread("threadIdx.x")
        T.launch_thread(tx, 4)
        ty = T.env_thread("threadIdx.y")
        T.launch_thread(ty, 6)
        red = T.allocate([1], "float32", "local")
        red_1 = T.Buffer((1,), data=red, scope="local")
        with T.allocate([24], "float32", "shared") as red_buf1_0:
            red_buf1_0_1 = T.Buffer((24,), data=red_buf1_0, scope="shared")
            red_buf1_0_1[tx * 6 + ty] = T.Select(ty < 5, A[ty * 4 + tx], T.float32(-300000000000000012135895401846682943488.0))
            T.tvm_storage_sync("shared")
            if ty < 2:
                red_buf1_0_1[tx * 6 + ty] = T.max(red_buf1_0_1[tx * 6 + ty], red_buf1_0_1[tx * 6 + ty + 4])
            T.tvm_storage_sync("shared")
            if ty < 2:
                red_buf1_0_1[tx * 6 + ty] = T.max(red_buf1_0_1[tx * 6 + ty], red_buf1_0_1[tx * 6 + ty + 2])
            T.tvm_storage_sync("shared")
            if ty < 1:
                red_buf1_0_1[tx * 6 + ty] = T.max(red_buf1_0_1[tx * 6 + ty], red_buf1_0_1[tx * 6 + ty + 1])
            T.tvm_storage_sync("shared")
            red_1[0] = red_buf1_0_1[tx * 6]
            T.tvm_storage_sync("shared")
        B[tx] = red_1[0]
