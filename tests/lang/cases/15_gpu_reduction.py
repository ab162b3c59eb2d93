# GPU reductions: shared-memory tree reduction with syncs, cross-thread reduction block (rfactor-style).
from tvm.script import tir as T


# block-level tree reduction in shared memory inside an opaque block (no iter vars), unrolled tree
@T.prim_func
def tree_reduce(A: T.Buffer((8, 256), "float32"), B: T.Buffer((8,), "float32")):
    for bx in T.thread_binding(8, thread="blockIdx.x"):
        for tx in T.thread_binding(256, thread="threadIdx.x"):
            with T.block("reduce"):
                T.reads(A[bx, 0:256])
                T.writes(B[bx])
                sdata = T.alloc_buffer((256,), scope="shared")
                sdata[tx] = A[bx, tx]
                T.tvm_storage_sync("shared")
                for s in T.unroll(8):
                    if tx < T.shift_right(128, s):
                        sdata[tx] = sdata[tx] + sdata[tx + T.shift_right(128, s)]
                    T.tvm_storage_sync("shared")
                if tx == 0:
                    B[bx] = sdata[0]


# rfactor result: partial sums per thread then a final reduction over the rfactor buffer
@T.prim_func
def rfactor_sum(A: T.Buffer((128, 128), "float32"), B: T.Buffer((128,), "float32")):
    B_rf = T.alloc_buffer((128, 32), "float32", scope="local")
    for i in T.thread_binding(128, thread="blockIdx.x"):
        for ki in T.thread_binding(32, thread="threadIdx.x"):
            for ko in range(4):
                with T.block("B_rf"):
                    vki = T.axis.spatial(32, ki)
                    vi = T.axis.spatial(128, i)
                    vko = T.axis.reduce(4, ko)
                    with T.init():
                        B_rf[vi, vki] = T.float32(0)
                    B_rf[vi, vki] = B_rf[vi, vki] + A[vi, vko * 32 + vki]
        for ki in T.thread_binding(32, thread="threadIdx.x"):
            with T.block("B"):
                vki = T.axis.reduce(32, ki)
                vi = T.axis.spatial(128, i)
                with T.init():
                    B[vi] = T.float32(0)
                B[vi] = B[vi] + B_rf[vi, vki]


# warp shuffle reduction in lowered form using tvm_warp_shuffle_down and the active mask
@T.prim_func
def warp_shuffle_sum(A: T.Buffer((32,), "float32"), B: T.Buffer((1,), "float32")):
    tx = T.launch_thread("threadIdx.x", 32)
    red = T.allocate([1], "float32", "local")
    red_1 = T.Buffer((1,), data=red, scope="local")
    mask = T.allocate([1], "uint32", "local")
    mask_1 = T.Buffer((1,), "uint32", data=mask, scope="local")
    red_1[0] = A[tx]
    mask_1[0] = T.tvm_warp_activemask()
    for s in T.unroll(5):
        red_1[0] = red_1[0] + T.tvm_warp_shuffle_down(mask_1[0], red_1[0], T.shift_right(16, s), 32, 32)
    if tx == 0:
        B[0] = red_1[0]
