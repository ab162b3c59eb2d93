@T.prim_func
def conv2d(X: T.Buffer((1, 16, 18, 18), "float16"), W: T.Buffer((32, 16, 3, 3), "float16"), Y: T.Buffer((1, 32, 16, 16), "float32")):
    T.func_attr({"global_symbol": "conv2d", "tir.noalias": True})
    for n, co, h, w, ci, kh, kw in T.grid(1, 32, 16, 16, 16, 3, 3):
        with T.block("conv"):
            vn, vco, vh, vw, vci, vkh, vkw = T.axis.remap("SSSSRRR", [n, co, h, w, ci, kh, kw])
            with T.init():
                Y[vn, vco, vh, vw] = T.float32(0)
            Y[vn, vco, vh, vw] = Y[vn, vco, vh, vw] + T.Cast("float32", X[vn, vci, vh + vkh, vw + vkw]) * T.Cast("float32", W[vco, vci, vkh, vkw])
# output
# from tvm.script import tir as T

@T.prim_func
def conv2d(X: T.Buffer((1, 16, 18, 18), "float16"), W: T.Buffer((32, 16, 3, 3), "float16"), Y: T.Buffer((1, 32, 16, 16), "float32")):
    T.func_attr({"tir.noalias": True})
    # with T.block("root"):
    for n, co, h, w, ci, kh, kw in T.grid(1, 32, 16, 16, 16, 3, 3):
        with T.block("conv"):
            vn, vco, vh, vw, vci, vkh, vkw = T.axis.remap("SSSSRRR", [n, co, h, w, ci, kh, kw])
            T.reads(X[vn, vci, vh + vkh, vw + vkw], W[vco, vci, vkh, vkw])
            T.writes(Y[vn, vco, vh, vw])
            with T.init():
                Y[vn, vco, vh, vw] = T.float32(0.0)
            Y[vn, vco, vh, vw] = Y[vn, vco, vh, vw] + T.Cast("float32", X[vn, vci, vh + vkh, vw + vkw]) * T.Cast("float32", W[vco, vci, vkh, vkw])
