# Pooling: max pool with padding, average pool with a divide epilogue, global average pool.
from tvm.script import tir as T


# 3x3 max pool, stride 2, pad 1
@T.prim_func
def max_pool2d(A: T.Buffer((1, 16, 32, 32), "float32"), B: T.Buffer((1, 16, 16, 16), "float32")):
    pad = T.alloc_buffer((1, 16, 34, 34))
    for n, c, h, w in T.grid(1, 16, 34, 34):
        with T.block("pad"):
            vn, vc, vh, vw = T.axis.remap("SSSS", [n, c, h, w])
            pad[vn, vc, vh, vw] = T.if_then_else(
                1 <= vh and vh < 33 and 1 <= vw and vw < 33,
                A[vn, vc, vh - 1, vw - 1],
                T.min_value("float32"),
            )
    for n, c, h, w, rh, rw in T.grid(1, 16, 16, 16, 3, 3):
        with T.block("pool"):
            vn, vc, vh, vw, vrh, vrw = T.axis.remap("SSSSRR", [n, c, h, w, rh, rw])
            with T.init():
                B[vn, vc, vh, vw] = T.min_value("float32")
            B[vn, vc, vh, vw] = T.max(B[vn, vc, vh, vw], pad[vn, vc, vh * 2 + vrh, vw * 2 + vrw])


# 2x2 average pool, stride 2, no padding
@T.prim_func
def avg_pool2d(A: T.Buffer((1, 8, 16, 16), "float32"), B: T.Buffer((1, 8, 8, 8), "float32")):
    acc = T.alloc_buffer((1, 8, 8, 8))
    for n, c, h, w, rh, rw in T.grid(1, 8, 8, 8, 2, 2):
        with T.block("sum"):
            vn, vc, vh, vw, vrh, vrw = T.axis.remap("SSSSRR", [n, c, h, w, rh, rw])
            with T.init():
                acc[vn, vc, vh, vw] = T.float32(0)
            acc[vn, vc, vh, vw] = acc[vn, vc, vh, vw] + A[vn, vc, vh * 2 + vrh, vw * 2 + vrw]
    for n, c, h, w in T.grid(1, 8, 8, 8):
        with T.block("avg"):
            vn, vc, vh, vw = T.axis.remap("SSSS", [n, c, h, w])
            B[vn, vc, vh, vw] = acc[vn, vc, vh, vw] * T.float32(0.25)


# global average pool NCHW -> NC11
@T.prim_func
def global_avg_pool(A: T.Buffer((2, 64, 7, 7), "float32"), B: T.Buffer((2, 64, 1, 1), "float32")):
    for n, c, rh, rw in T.grid(2, 64, 7, 7):
        with T.block("gap"):
            vn, vc, vrh, vrw = T.axis.remap("SSRR", [n, c, rh, rw])
            with T.init():
                B[vn, vc, 0, 0] = T.float32(0)
            B[vn, vc, 0, 0] = B[vn, vc, 0, 0] + A[vn, vc, vrh, vrw] / T.float32(49)
