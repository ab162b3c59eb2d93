# T.comm_reducer with lambdas: sum reducer with tvm_thread_allreduce, two-value argmax reducer.
from tvm.script import tir as T


# warp-level sum: reduce_scope attr carrying a comm_reducer, opaque thread loops (no blocks)
@T.prim_func
def allreduce_sum(A: T.Buffer((128, 32), "float32"), B: T.Buffer((128,), "float32")):
    red_buf = T.alloc_buffer((1,), scope="local")
    for i in T.thread_binding(128, thread="blockIdx.x"):
        for k in T.thread_binding(32, thread="threadIdx.x"):
            with T.attr(
                T.comm_reducer(lambda x, y: x + y, [T.float32(0)]),
                "reduce_scope",
                T.reinterpret("handle", T.uint64(0)),
            ):
                T.evaluate(T.tvm_thread_allreduce(T.uint32(1), A[i, k], T.bool(True), red_buf[0], k))
            B[i] = red_buf[0]


# the two-value argmax reducer used by reduce_scope
@T.prim_func
def allreduce_argmax(idx: T.Buffer((32,), "int32"), val: T.Buffer((32,), "float32"), out_i: T.Buffer((1,), "int32")):
    red_i = T.alloc_buffer((1,), "int32", scope="local")
    red_v = T.alloc_buffer((1,), "float32", scope="local")
    for tx in T.thread_binding(32, thread="threadIdx.x"):
        with T.attr(
            T.comm_reducer(
                lambda x0, x1, y0, y1: (T.Select(x1 >= y1, x0, y0), T.Select(x1 >= y1, x1, y1)),
                [T.int32(-1), T.min_value("float32")],
            ),
            "reduce_scope",
            T.reinterpret("handle", T.uint64(0)),
        ):
            T.evaluate(
                T.tvm_thread_allreduce(T.uint32(2), idx[tx], val[tx], T.bool(True), red_i[0], red_v[0], tx)
            )
        out_i[0] = red_i[0]


# a max reducer bound to a parse-time name with T.meta_var, then used in the attr
@T.prim_func
def allreduce_max(A: T.Buffer((64,), "float32"), B: T.Buffer((1,), "float32")):
    red = T.alloc_buffer((1,), scope="local")
    for tx in T.thread_binding(64, thread="threadIdx.x"):
        reducer = T.meta_var(T.comm_reducer(lambda a, b: T.max(a, b), [T.min_value("float32")]))
        with T.attr(reducer, "reduce_scope", T.reinterpret("handle", T.uint64(0))):
            T.evaluate(T.tvm_thread_allreduce(T.uint32(1), A[tx], T.bool(True), red[0], tx))
        B[0] = red[0]
