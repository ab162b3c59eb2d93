"""2-D convolution in NCHW layout: a 1x64x56x56 float32 image, 64 filters of 64x3x3, stride 1,
padding 1 (a padding stage with T.if_then_else, then the reduction over channels and the 3x3
window), output channels in parallel.
"""
try:
    from tvm.script import tir as T
except ImportError:  # no TVM: tirkit's front end parses the kernel (python examples/x.py)
    from tirkit.lang import tir as T


@T.prim_func
def conv2d_nchw(
    data: T.Buffer((1, 64, 56, 56), "float32"),
    kernel: T.Buffer((64, 64, 3, 3), "float32"),
    out: T.Buffer((1, 64, 56, 56), "float32")
):
    T.func_attr({"global_symbol": "conv2d_nchw", "tir.noalias": True})
    pad = T.alloc_buffer((1, 64, 58, 58), "float32")
    for n, c, h, w in T.grid(1, 64, 58, 58):
        with T.block("pad"):
            vn, vc, vh, vw = T.axis.remap("SSSS", [n, c, h, w])
            T.reads(data[vn, vc, vh - 1, vw - 1])
            T.writes(pad[vn, vc, vh, vw])
            pad[vn, vc, vh, vw] = T.if_then_else(
                1 <= vh and vh < 57 and 1 <= vw and vw < 57,
                data[vn, vc, vh - 1, vw - 1],
                T.float32(0.0)
            )
    for n in range(1):
        for f in T.parallel(64):
            for y, x, rc, ry, rx in T.grid(56, 56, 64, 3, 3):
                with T.block("conv"):
                    vn, vf, vy, vx, vrc, vry, vrx = T.axis.remap(
                        "SSSSRRR",
                        [n, f, y, x, rc, ry, rx]
                    )
                    T.reads(pad[vn, vrc, vy + vry, vx + vrx], kernel[vf, vrc, vry, vrx])
                    T.writes(out[vn, vf, vy, vx])
                    with T.init():
                        out[vn, vf, vy, vx] = T.float32(0.0)
                    out[vn, vf, vy, vx] = out[vn, vf, vy, vx] + pad[
                        vn,
                        vrc,
                        vy + vry,
                        vx + vrx
                    ] * kernel[vf, vrc, vry, vrx]


if __name__ == "__main__":  # compile, run on random inputs, check against NumPy, time
    import run_example
    raise SystemExit(run_example.main(conv2d_nchw, __file__))
