# Depthwise convolution, NCHW and NHWC, with padding folded into the load.
from tvm.script import tir as T


# depthwise 3x3, channel multiplier 1, pad through if_then_else in the reduction
@T.prim_func
def depthwise_nchw(
    data: T.Buffer((1, 32, 28, 28), "float32"),
    kernel: T.Buffer((32, 1, 3, 3), "float32"),
    out: T.Buffer((1, 32, 28, 28), "float32"),
):
    for n, c, h, w, rh, rw in T.grid(1, 32, 28, 28, 3, 3):
        with T.block("depthwise"):
            vn, vc, vh, vw, vrh, vrw = T.axis.remap("SSSSRR", [n, c, h, w, rh, rw])
            with T.init():
                out[vn, vc, vh, vw] = T.float32(0)
            out[vn, vc, vh, vw] = out[vn, vc, vh, vw] + T.if_then_else(
                1 <= vh + vrh and vh + vrh < 29 and 1 <= vw + vrw and vw + vrw < 29,
                data[vn, vc, vh + vrh - 1, vw + vrw - 1],
                T.float32(0),
            ) * kernel[vc, 0, vrh, vrw]


# depthwise NHWC with a separate padded buffer and channel multiplier 2
@T.prim_func
def depthwise_nhwc_mult2(
    data: T.Buffer((1, 14, 14, 16), "float32"),
    kernel: T.Buffer((3, 3, 16, 2), "float32"),
    out: T.Buffer((1, 14, 14, 32), "float32"),
):
    padded = T.alloc_buffer((1, 16, 16, 16), "float32")
    for n, h, w, c in T.grid(1, 16, 16, 16):
        with T.block("padded"):
            vn, vh, vw, vc = T.axis.remap("SSSS", [n, h, w, c])
            padded[vn, vh, vw, vc] = T.if_then_else(
                1 <= vh and vh < 15 and 1 <= vw and vw < 15, data[vn, vh - 1, vw - 1, vc], T.float32(0)
            )
    for n, h, w, c, rh, rw in T.grid(1, 14, 14, 32, 3, 3):
        with T.block("dw"):
            vn, vh, vw, vc, vrh, vrw = T.axis.remap("SSSSRR", [n, h, w, c, rh, rw])
            T.reads(padded[vn, vh + vrh, vw + vrw, vc // 2], kernel[vrh, vrw, vc // 2, vc % 2])
            T.writes(out[vn, vh, vw, vc])
            with T.init():
                out[vn, vh, vw, vc] = T.float32(0)
            out[vn, vh, vw, vc] = out[vn, vh, vw, vc] + padded[vn, vh + vrh, vw + vrw, vc // 2] * kernel[
                vrh, vrw, vc // 2, vc % 2
            ]
