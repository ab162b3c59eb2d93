# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def max_pool2d(A: T.Buffer((1, 16, 32, 32), "float32"), B: T.Buffer((1, 16, 16, 16), "float32")):
    # with T.sblock("root"):
    pad = T.sblock_alloc_buffer((1, 16, 34, 34))
    for n, c, h, w in T.grid(1, 16, 34, 34):
        with T.sblock("pad"):
            vn, vc, vh, vw = T.axis.remap("SSSS", [n, c, h, w])
            T.reads(A[vn, vc, vh - 1, vw - 1])
            T.writes(pad[vn, vc, vh, vw])
            pad[vn, vc, vh, vw] = T.if_then_else(1 <= vh and vh < 33 and 1 <= vw and vw < 33, A[vn, vc, vh - 1, vw - 1], T.float32(-340282346638528859811704183484516925440.0))
    for n, c, h, w, rh, rw in T.grid(1, 16, 16, 16, 3, 3):
        with T.sblock("pool"):
            vn, vc, vh, vw, vrh, vrw = T.axis.remap("SSSSRR", [n, c, h, w, rh, rw])
            T.reads(pad[vn, vc, vh * 2 + vrh, vw * 2 + vrw])
            T.writes(B[vn, vc, vh, vw])
            with T.init():
                B[vn, vc, vh, vw] = T.float32(-340282346638528859811704183484516925440.0)
            B[vn, vc, vh, vw] = T.max(B[vn, vc, vh, vw], pad[vn, vc, vh * 2 + vrh, vw * 2 + vrw])
