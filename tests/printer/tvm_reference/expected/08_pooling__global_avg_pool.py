# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def global_avg_pool(A: T.Buffer((2, 64, 7, 7), "float32"), B: T.Buffer((2, 64, 1, 1), "float32")):
    # with T.sblock("root"):
    for n, c, rh, rw in T.grid(2, 64, 7, 7):
        with T.sblock("gap"):
            vn, vc, vrh, vrw = T.axis.remap("SSRR", [n, c, rh, rw])
            T.reads(A[vn, vc, vrh, vrw])
            T.writes(B[vn, vc, 0, 0])
            with T.init():
                B[vn, vc, 0, 0] = T.float32(0.0)
            B[vn, vc, 0, 0] = B[vn, vc, 0, 0] + A[vn, vc, vrh, vrw] / T.float32(49.0)
