"""Row sums with warp shuffles: B[i] = sum(A[i, :]) for an M x K float32 matrix.

One warp (32 lanes of threadIdx.x) per row, 4 rows per block (threadIdx.y). Each lane adds
K / 32 strided elements, then five ``tvm_warp_shuffle_down`` rounds (16, 8, 4, 2, 1) add the
lanes' partial sums without shared memory; lane 0 writes the row's sum.

    tirc examples/gpu/row_reduce_warp.py --target cuda --emit ptx
"""
from tvm.script import tir as T

M = 4096
K = 1024


@T.prim_func
def row_reduce_warp(A: T.Buffer((M, K), "float32"), B: T.Buffer((M,), "float32")):
    T.func_attr({"global_symbol": "row_reduce_warp", "tir.noalias": True})
    bx = T.launch_thread("blockIdx.x", M // 4)
    ty = T.launch_thread("threadIdx.y", 4)
    tx = T.launch_thread("threadIdx.x", 32)
    acc = T.allocate([1], "float32", "local")
    acc_1 = T.Buffer((1,), data=acc, scope="local")
    mask = T.allocate([1], "uint32", "local")
    mask_1 = T.Buffer((1,), "uint32", data=mask, scope="local")
    acc_1[0] = T.float32(0)
    for k in range(K // 32):  # lane tx adds A[row, tx], A[row, tx + 32], ...
        acc_1[0] = acc_1[0] + A[bx * 4 + ty, k * 32 + tx]
    mask_1[0] = T.tvm_warp_activemask()
    # lane i adds lane i + 16's sum, then i + 8's, ...: lane 0 ends with the whole row
    acc_1[0] = acc_1[0] + T.tvm_warp_shuffle_down(mask_1[0], acc_1[0], 16, 32, 32)
    acc_1[0] = acc_1[0] + T.tvm_warp_shuffle_down(mask_1[0], acc_1[0], 8, 32, 32)
    acc_1[0] = acc_1[0] + T.tvm_warp_shuffle_down(mask_1[0], acc_1[0], 4, 32, 32)
    acc_1[0] = acc_1[0] + T.tvm_warp_shuffle_down(mask_1[0], acc_1[0], 2, 32, 32)
    acc_1[0] = acc_1[0] + T.tvm_warp_shuffle_down(mask_1[0], acc_1[0], 1, 32, 32)
    if tx == 0:
        B[bx * 4 + ty] = acc_1[0]
