# The inner reduction loop bound to threadIdx.x (TVM's GPU row-sum recipe, its
# test_tir_transform_lower_cross_thread_reduction.py loop_split): the thread loop goes outside
# the serial reduction loop, each thread sums its slice into in_thread_B, tvm_thread_allreduce
# combines the 128 partial sums into cross_thread_B and thread 0 writes B[vi]. (tirkit always
# makes the in-thread stage; TVM skips it when no serial reduction loop remains.)
@T.prim_func
def main(A: T.Buffer((128, 512), "float32"), B: T.Buffer((128,), "float32")):
    for i in T.thread_binding(128, thread="blockIdx.x"):
        for ko in range(4):
            for ki in T.thread_binding(128, thread="threadIdx.x"):
                with T.block("B"):
                    vi = T.axis.spatial(128, i)
                    vk = T.axis.reduce(512, ko * 128 + ki)
                    T.reads(A[vi, vk])
                    T.writes(B[vi])
                    with T.init():
                        B[vi] = T.float32(0)
                    B[vi] = B[vi] + A[vi, vk]


# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((128, 512), "float32"), B: T.Buffer((128,), "float32")):
        # with T.block("root"):
        in_thread_B = T.alloc_buffer((1,), scope="local")
        cross_thread_B = T.alloc_buffer((1,), scope="local")
        for i in T.thread_binding(128, thread="blockIdx.x"):
            for ki in T.thread_binding(128, thread="threadIdx.x"):
                with T.block("B_in_thread_init"):
                    T.reads()
                    T.writes(in_thread_B[0])
                    in_thread_B[0] = T.float32(0.0)
                for ko in range(4):
                    with T.block("B_in_thread"):
                        vi = T.axis.spatial(128, i)
                        vk = T.axis.reduce(512, ko * 128 + ki)
                        T.reads(in_thread_B[0], A[vi, vk])
                        T.writes(in_thread_B[0])
                        in_thread_B[0] = in_thread_B[0] + A[vi, vk]
                with T.block("B_cross_thread"):
                    T.reads(in_thread_B[0])
                    T.writes(cross_thread_B[0])
                    T.attr(T.comm_reducer(lambda x, y: x + y, [T.float32(0.0)]), "reduce_scope", T.reinterpret("handle", T.uint64(0)))
                    T.tvm_thread_allreduce(T.uint32(1), in_thread_B[0], T.bool(True), cross_thread_B[0], ki)
                with T.block("B_write_back"):
                    vi = T.axis.spatial(128, i)
                    T.where(ki == 0)
                    T.reads(cross_thread_B[0])
                    T.writes(B[vi])
                    B[vi] = cross_thread_B[0]
