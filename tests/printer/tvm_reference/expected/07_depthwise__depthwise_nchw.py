# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def depthwise_nchw(data: T.Buffer((1, 32, 28, 28), "float32"), kernel: T.Buffer((32, 1, 3, 3), "float32"), out: T.Buffer((1, 32, 28, 28), "float32")):
    # with T.sblock("root"):
    for n, c, h, w, rh, rw in T.grid(1, 32, 28, 28, 3, 3):
        with T.sblock("depthwise"):
            vn, vc, vh, vw, vrh, vrw = T.axis.remap("SSSSRR", [n, c, h, w, rh, rw])
            T.reads(data[vn, vc, vh + vrh - 1, vw + vrw - 1], kernel[vc, 0, vrh, vrw])
            T.writes(out[vn, vc, vh, vw])
            with T.init():
                out[vn, vc, vh, vw] = T.float32(0.0)
            out[vn, vc, vh, vw] = out[vn, vc, vh, vw] + T.if_then_else(1 <= vh + vrh and vh + vrh < 29 and 1 <= vw + vrw and vw + vrw < 29, data[vn, vc, vh + vrh - 1, vw + vrw - 1], T.float32(0.0)) * kernel[vc, 0, vrh, vrw]
