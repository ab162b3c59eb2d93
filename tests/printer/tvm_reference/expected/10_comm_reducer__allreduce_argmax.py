# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def allreduce_argmax(idx: T.Buffer((32,), "int32"), val: T.Buffer((32,), "float32"), out_i: T.Buffer((1,), "int32")):
    # with T.sblock("root"):
    red_i = T.sblock_alloc_buffer((1,), "int32", scope="local")
    red_v = T.sblock_alloc_buffer((1,), scope="local")
    for tx in T.thread_binding(32, thread="threadIdx.x"):
        with T.attr(T.comm_reducer(lambda x0, x1, y0, y1: (T.Select(x1 >= y1, x0, y0), T.Select(x1 >= y1, x1, y1)), [-1, T.float32(-340282346638528859811704183484516925440.0)]), "reduce_scope", T.reinterpret(T.handle().ty, T.uint64(0))):
            T.tvm_thread_allreduce(T.uint32(2), idx[tx], val[tx], T.bool(True), red_i[0], red_v[0], tx)
        out_i[0] = red_i[0]
