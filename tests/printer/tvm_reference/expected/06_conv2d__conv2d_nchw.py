# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def conv2d_nchw(data: T.Buffer((1, 64, 56, 56), "float32"), kernel: T.Buffer((64, 64, 3, 3), "float32"), out: T.Buffer((1, 64, 56, 56), "float32")):
    T.func_attr({"tir.noalias": True})
    # with T.sblock("root"):
    pad = T.sblock_alloc_buffer((1, 64, 58, 58))
    for n, c, h, w in T.grid(1, 64, 58, 58):
        with T.sblock("pad"):
            vn, vc, vh, vw = T.axis.remap("SSSS", [n, c, h, w])
            T.reads(data[vn, vc, vh - 1, vw - 1])
            T.writes(pad[vn, vc, vh, vw])
            pad[vn, vc, vh, vw] = T.if_then_else(1 <= vh and vh < 57 and 1 <= vw and vw < 57, data[vn, vc, vh - 1, vw - 1], T.float32(0.0))
    for n, f, y, x, rc, ry, rx in T.grid(1, 64, 56, 56, 64, 3, 3):
        with T.sblock("conv"):
            vn, vf, vy, vx, vrc, vry, vrx = T.axis.remap("SSSSRRR", [n, f, y, x, rc, ry, rx])
            T.reads(pad[vn, vrc, vy + vry, vx + vrx], kernel[vf, vrc, vry, vrx])
            T.writes(out[vn, vf, vy, vx])
            with T.init():
                out[vn, vf, vy, vx] = T.float32(0.0)
            out[vn, vf, vy, vx] = out[vn, vf, vy, vx] + pad[vn, vrc, vy + vry, vx + vrx] * kernel[vf, vrc, vry, vrx]
