# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def depthwise_nhwc_mult2(data: T.Buffer((1, 14, 14, 16), "float32"), kernel: T.Buffer((3, 3, 16, 2), "float32"), out: T.Buffer((1, 14, 14, 32), "float32")):
    # with T.sblock("root"):
    padded = T.sblock_alloc_buffer((1, 16, 16, 16))
    for n, h, w, c in T.grid(1, 16, 16, 16):
        with T.sblock("padded"):
            vn, vh, vw, vc = T.axis.remap("SSSS", [n, h, w, c])
            T.reads(data[vn, vh - 1, vw - 1, vc])
            T.writes(padded[vn, vh, vw, vc])
            padded[vn, vh, vw, vc] = T.if_then_else(1 <= vh and vh < 15 and 1 <= vw and vw < 15, data[vn, vh - 1, vw - 1, vc], T.float32(0.0))
    for n, h, w, c, rh, rw in T.grid(1, 14, 14, 32, 3, 3):
        with T.sblock("dw"):
            vn, vh, vw, vc, vrh, vrw = T.axis.remap("SSSSRR", [n, h, w, c, rh, rw])
            T.reads(padded[vn, vh + vrh, vw + vrw, vc // 2], kernel[vrh, vrw, vc // 2, vc % 2])
            T.writes(out[vn, vh, vw, vc])
            with T.init():
                out[vn, vh, vw, vc] = T.float32(0.0)
            out[vn, vh, vw, vc] = out[vn, vh, vw, vc] + padded[vn, vh + vrh, vw + vrw, vc // 2] * kernel[vrh, vrw, vc // 2, vc % 2]
