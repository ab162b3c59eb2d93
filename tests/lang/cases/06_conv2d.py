# conv2d: NCHW with a padding stage (T.if_then_else), NHWC with T.where-free direct indexing.
from tvm.script import tir as T


# NCHW conv2d 3x3, stride 1, pad 1
@T.prim_func
def conv2d_nchw(
    data: T.Buffer((1, 64, 56, 56), "float32"),
    kernel: T.Buffer((64, 64, 3, 3), "float32"),
    out: T.Buffer((1, 64, 56, 56), "float32"),
):
    T.func_attr({"global_symbol": "conv2d_nchw", "tir.noalias": True})
    pad = T.alloc_buffer((1, 64, 58, 58))
    for n, c, h, w in T.grid(1, 64, 58, 58):
        with T.block("pad"):
            vn, vc, vh, vw = T.axis.remap("SSSS", [n, c, h, w])
            pad[vn, vc, vh, vw] = T.if_then_else(
                1 <= vh and vh < 57 and 1 <= vw and vw < 57,
                data[vn, vc, vh - 1, vw - 1],
                T.float32(0),
            )
    for n, f, y, x, rc, ry, rx in T.grid(1, 64, 56, 56, 64, 3, 3):
        with T.block("conv"):
            vn, vf, vy, vx, vrc, vry, vrx = T.axis.remap("SSSSRRR", [n, f, y, x, rc, ry, rx])
            with T.init():
                out[vn, vf, vy, vx] = T.float32(0)
            out[vn, vf, vy, vx] = out[vn, vf, vy, vx] + pad[vn, vrc, vy + vry, vx + vrx] * kernel[vf, vrc, vry, vrx]


# NCHW conv2d with stride 2 and bias + relu epilogue
@T.prim_func
def conv2d_stride2_bias_relu(
    data: T.Buffer((1, 3, 224, 224), "float32"),
    kernel: T.Buffer((32, 3, 3, 3), "float32"),
    bias: T.Buffer((32,), "float32"),
    out: T.Buffer((1, 32, 112, 112), "float32"),
):
    pad = T.alloc_buffer((1, 3, 226, 226))
    conv = T.alloc_buffer((1, 32, 112, 112))
    for n, c, h, w in T.grid(1, 3, 226, 226):
        with T.block("pad"):
            vn, vc, vh, vw = T.axis.remap("SSSS", [n, c, h, w])
            pad[vn, vc, vh, vw] = T.if_then_else(
                vh >= 1 and vh < 225 and vw >= 1 and vw < 225, data[vn, vc, vh - 1, vw - 1], T.float32(0)
            )
    for n, f, y, x, rc, ry, rx in T.grid(1, 32, 112, 112, 3, 3, 3):
        with T.block("conv"):
            vn, vf, vy, vx, vrc, vry, vrx = T.axis.remap("SSSSRRR", [n, f, y, x, rc, ry, rx])
            with T.init():
                conv[vn, vf, vy, vx] = T.float32(0)
            conv[vn, vf, vy, vx] = conv[vn, vf, vy, vx] + pad[vn, vrc, vy * 2 + vry, vx * 2 + vrx] * kernel[vf, vrc, vry, vrx]
    for n, f, y, x in T.grid(1, 32, 112, 112):
        with T.block("bias_relu"):
            vn, vf, vy, vx = T.axis.remap("SSSS", [n, f, y, x])
            out[vn, vf, vy, vx] = T.max(conv[vn, vf, vy, vx] + bias[vf], T.float32(0))


# NHWC conv2d without padding (valid convolution), int8 x int8 -> int32
@T.prim_func
def conv2d_nhwc_int8(
    data: T.Buffer((1, 16, 16, 8), "int8"),
    kernel: T.Buffer((3, 3, 8, 16), "int8"),
    out: T.Buffer((1, 14, 14, 16), "int32"),
):
    for n, h, w, co, rh, rw, rc in T.grid(1, 14, 14, 16, 3, 3, 8):
        with T.block("conv2d_nhwc"):
            vn, vh, vw, vco, vrh, vrw, vrc = T.axis.remap("SSSSRRR", [n, h, w, co, rh, rw, rc])
            with T.init():
                out[vn, vh, vw, vco] = 0
            out[vn, vh, vw, vco] = out[vn, vh, vw, vco] + T.Cast("int32", data[vn, vh + vrh, vw + vrw, vrc]) * T.Cast(
                "int32", kernel[vrh, vrw, vrc, vco]
            )
