# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def avg_pool2d(A: T.Buffer((1, 8, 16, 16), "float32"), B: T.Buffer((1, 8, 8, 8), "float32")):
    # with T.sblock("root"):
    acc = T.sblock_alloc_buffer((1, 8, 8, 8))
    for n, c, h, w, rh, rw in T.grid(1, 8, 8, 8, 2, 2):
        with T.sblock("sum"):
            vn, vc, vh, vw, vrh, vrw = T.axis.remap("SSSSRR", [n, c, h, w, rh, rw])
            T.reads(A[vn, vc, vh * 2 + vrh, vw * 2 + vrw])
            T.writes(acc[vn, vc, vh, vw])
            with T.init():
                acc[vn, vc, vh, vw] = T.float32(0.0)
            acc[vn, vc, vh, vw] = acc[vn, vc, vh, vw] + A[vn, vc, vh * 2 + vrh, vw * 2 + vrw]
    for n, c, h, w in T.grid(1, 8, 8, 8):
        with T.sblock("avg"):
            vn, vc, vh, vw = T.axis.remap("SSSS", [n, c, h, w])
            T.reads(acc[vn, vc, vh, vw])
            T.writes(B[vn, vc, vh, vw])
            B[vn, vc, vh, vw] = acc[vn, vc, vh, vw] * T.float32(0.25)
