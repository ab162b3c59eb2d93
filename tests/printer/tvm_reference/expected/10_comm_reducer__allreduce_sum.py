# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def allreduce_sum(A: T.Buffer((128, 32), "float32"), B: T.Buffer((128,), "float32")):
    # with T.sblock("root"):
    red_buf = T.sblock_alloc_buffer((1,), scope="local")
    for i in T.thread_binding(128, thread="blockIdx.x"):
        for k in T.thread_binding(32, thread="threadIdx.x"):
            with T.attr(T.comm_reducer(lambda x, y: x + y, [T.float32(0.0)]), "reduce_scope", T.reinterpret(T.handle().ty, T.uint64(0))):
                T.tvm_thread_allreduce(T.uint32(1), A[i, k], T.bool(True), red_buf[0], k)
            B[i] = red_buf[0]
