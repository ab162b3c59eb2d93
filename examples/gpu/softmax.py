"""Row softmax on the GPU: B[i, :] = exp(A[i, :] - max) / sum(exp(A[i, :] - max)).

One block of 128 threads per row. Each thread reduces its strided columns, then two block-wide
cross-thread reductions (``tvm_thread_allreduce`` under a ``reduce_scope``; LowerThreadAllreduce
makes them shared-memory trees) give the row's max and the sum of exponentials, and each thread
writes its columns. ``T.exp`` goes to libdevice's ``__nv_expf``.

    tirc examples/gpu/softmax.py --target cuda --emit ptx
"""
from tvm.script import tir as T

M = 1024
N = 1024


@T.prim_func
def softmax(A: T.Buffer((M, N), "float32"), B: T.Buffer((M, N), "float32")):
    T.func_attr({"global_symbol": "softmax", "tir.noalias": True})
    row = T.launch_thread("blockIdx.x", M)
    tx = T.launch_thread("threadIdx.x", 128)
    part = T.allocate([1], "float32", "local")
    part_1 = T.Buffer((1,), data=part, scope="local")
    row_max = T.allocate([1], "float32", "local")
    row_max_1 = T.Buffer((1,), data=row_max, scope="local")
    row_sum = T.allocate([1], "float32", "local")
    row_sum_1 = T.Buffer((1,), data=row_sum, scope="local")
    part_1[0] = T.min_value("float32")
    for k in range(N // 128):
        part_1[0] = T.max(part_1[0], A[row, k * 128 + tx])
    with T.attr(T.comm_reducer(lambda x, y: T.max(x, y), [T.min_value("float32")]), "reduce_scope", T.reinterpret("handle", T.uint64(0))):
        T.tvm_thread_allreduce(T.uint32(1), part_1[0], T.bool(True), row_max_1[0], tx)
    part_1[0] = T.float32(0)
    for k in range(N // 128):
        part_1[0] = part_1[0] + T.exp(A[row, k * 128 + tx] - row_max_1[0])
    with T.attr(T.comm_reducer(lambda x, y: x + y, [T.float32(0)]), "reduce_scope", T.reinterpret("handle", T.uint64(0))):
        T.tvm_thread_allreduce(T.uint32(1), part_1[0], T.bool(True), row_sum_1[0], tx)
    for k in range(N // 128):
        B[row, k * 128 + tx] = T.exp(A[row, k * 128 + tx] - row_max_1[0]) / row_sum_1[0]
