# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def conv2d_nhwc_int8(data: T.Buffer((1, 16, 16, 8), "int8"), kernel: T.Buffer((3, 3, 8, 16), "int8"), out: T.Buffer((1, 14, 14, 16), "int32")):
    # with T.sblock("root"):
    for n, h, w, co, rh, rw, rc in T.grid(1, 14, 14, 16, 3, 3, 8):
        with T.sblock("conv2d_nhwc"):
            vn, vh, vw, vco, vrh, vrw, vrc = T.axis.remap("SSSSRRR", [n, h, w, co, rh, rw, rc])
            T.reads(data[vn, vh + vrh, vw + vrw, vrc], kernel[vrh, vrw, vrc, vco])
            T.writes(out[vn, vh, vw, vco])
            with T.init():
                out[vn, vh, vw, vco] = 0
            out[vn, vh, vw, vco] = out[vn, vh, vw, vco] + T.Cast("int32", data[vn, vh + vrh, vw + vrw, vrc]) * T.Cast("int32", kernel[vrh, vrw, vrc, vco])
