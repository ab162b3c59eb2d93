# from tvm.script import tirx as T

@T.prim_func
def scalar_params(a: T.int8, b: T.int16, c: T.int32, d: T.int64, e: T.uint8, f: T.uint16, g: T.uint32, h: T.uint64, x: T.float16, y: T.float32, z: T.float64, w: T.bfloat16, p: T.bool, out: T.Buffer((1,), "float64")):
    if p:
        out = T.Cast("float64", a + T.int8(1)) + T.Cast("float64", b) + T.Cast("float64", c) + T.Cast("float64", d)
    else:
        out = T.Cast("float64", e) + T.Cast("float64", f) + T.Cast("float64", g) + T.Cast("float64", h)
    out = out + T.Cast("float64", x) + T.Cast("float64", y) + z + T.Cast("float64", w)
