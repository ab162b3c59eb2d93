# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def nchw_to_nhwc(A: T.Buffer((1, 3, 8, 8), "float32"), B: T.Buffer((1, 8, 8, 3), "float32")):
    # with T.sblock("root"):
    for n, h, w, c in T.grid(1, 8, 8, 3):
        with T.sblock("layout"):
            vn, vh, vw, vc = T.axis.remap("SSSS", [n, h, w, c])
            T.reads(A[vn, vc, vh, vw])
            T.writes(B[vn, vh, vw, vc])
            B[vn, vh, vw, vc] = A[vn, vc, vh, vw]
