# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def conv2d_stride2_bias_relu(data: T.Buffer((1, 3, 224, 224), "float32"), kernel: T.Buffer((32, 3, 3, 3), "float32"), bias: T.Buffer((32,), "float32"), out: T.Buffer((1, 32, 112, 112), "float32")):
    # with T.sblock("root"):
    pad = T.sblock_alloc_buffer((1, 3, 226, 226))
    conv = T.sblock_alloc_buffer((1, 32, 112, 112))
    for n, c, h, w in T.grid(1, 3, 226, 226):
        with T.sblock("pad"):
            vn, vc, vh, vw = T.axis.remap("SSSS", [n, c, h, w])
            T.reads(data[vn, vc, vh - 1, vw - 1])
            T.writes(pad[vn, vc, vh, vw])
            pad[vn, vc, vh, vw] = T.if_then_else(vh >= 1 and vh < 225 and vw >= 1 and vw < 225, data[vn, vc, vh - 1, vw - 1], T.float32(0.0))
    for n, f, y, x, rc, ry, rx in T.grid(1, 32, 112, 112, 3, 3, 3):
        with T.sblock("conv"):
            vn, vf, vy, vx, vrc, vry, vrx = T.axis.remap("SSSSRRR", [n, f, y, x, rc, ry, rx])
            T.reads(pad[vn, vrc, vy * 2 + vry, vx * 2 + vrx], kernel[vf, vrc, vry, vrx])
            T.writes(conv[vn, vf, vy, vx])
            with T.init():
                conv[vn, vf, vy, vx] = T.float32(0.0)
            conv[vn, vf, vy, vx] = conv[vn, vf, vy, vx] + pad[vn, vrc, vy * 2 + vry, vx * 2 + vrx] * kernel[vf, vrc, vry, vrx]
    for n, f, y, x in T.grid(1, 32, 112, 112):
        with T.sblock("bias_relu"):
            vn, vf, vy, vx = T.axis.remap("SSSS", [n, f, y, x])
            T.reads(conv[vn, vf, vy, vx], bias[vf])
            T.writes(out[vn, vf, vy, vx])
            out[vn, vf, vy, vx] = T.max(conv[vn, vf, vy, vx] + bias[vf], T.float32(0.0))
