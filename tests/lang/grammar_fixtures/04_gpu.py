from tvm.script import tir as T


@T.prim_func
def add_gpu(A: T.Buffer((1024,), "float32"), B: T.Buffer((1024,), "float32"), C: T.Buffer((1024,), "float32")):
    T.func_attr({"global_symbol": "add_gpu", "target": T.target("cuda")})
    for i_0 in T.thread_binding(8, thread="blockIdx.x"):
        for i_1 in T.thread_binding(128, thread="threadIdx.x"):
            with T.block("C"):
                vi = T.axis.spatial(1024, i_0 * 128 + i_1)
                T.reads(A[vi], B[vi])
                T.writes(C[vi])
                C[vi] = A[vi] + B[vi]


@T.prim_func
def reduce_shared(A: T.Buffer((128, 128), "float32"), B: T.Buffer((128,), "float32")):
    blockIdx_x = T.launch_thread("blockIdx.x", 128)
    threadIdx_x = T.env_thread("threadIdx.x")
    A_shared = T.alloc_buffer((128,), scope="shared")
    red_buf = T.decl_buffer((1,), scope="local")
    T.launch_thread(threadIdx_x, 128)
    A_shared[threadIdx_x] = A[blockIdx_x, threadIdx_x]
    T.tvm_storage_sync("shared")
    with T.attr(
        T.comm_reducer(lambda x, y: x + y, [T.float32(0)]),
        "reduce_scope",
        T.reinterpret("handle", T.uint64(0)),
    ):
        T.tvm_thread_allreduce(T.uint32(1), A_shared[threadIdx_x], T.bool(True), red_buf[0], threadIdx_x)
    if threadIdx_x == 0:
        B[blockIdx_x] = red_buf[0]
