# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def allreduce_max(A: T.Buffer((64,), "float32"), B: T.Buffer((1,), "float32")):
    # with T.sblock("root"):
    red = T.sblock_alloc_buffer((1,), scope="local")
    for tx in T.thread_binding(64, thread="threadIdx.x"):
        with T.attr(T.comm_reducer(lambda a, b: T.max(a, b), [T.float32(-340282346638528859811704183484516925440.0)]), "reduce_scope", T.reinterpret(T.handle().ty, T.uint64(0))):
            T.tvm_thread_allreduce(T.uint32(1), A[tx], T.bool(True), red[0], tx)
        B[0] = red[0]
