# Every scalar dtype constructor as a literal, as a var annotation and as a Buffer dtype; vector dtypes.
from tvm.script import tir as T


# integer and unsigned constructors
@T.prim_func
def int_ctors(A: T.Buffer((8,), "int64")):
    A[0] = T.Cast("int64", T.int8(-8))
    A[1] = T.Cast("int64", T.int16(300))
    A[2] = T.Cast("int64", T.int32(70000))
    A[3] = T.int64(1) << T.int64(40)
    A[4] = T.Cast("int64", T.uint8(255))
    A[5] = T.Cast("int64", T.uint16(65535))
    A[6] = T.Cast("int64", T.uint32(4000000000))
    A[7] = T.Cast("int64", T.uint64(7))


# float constructors including half and bfloat16, and bool
@T.prim_func
def float_ctors(A: T.Buffer((6,), "float64"), M: T.Buffer((2,), "bool")):
    A[0] = T.Cast("float64", T.float16(1.5))
    A[1] = T.Cast("float64", T.float32(2.25))
    A[2] = T.float64(3.125)
    A[3] = T.Cast("float64", T.bfloat16(0.5))
    A[4] = T.Cast("float64", T.float32("inf"))
    A[5] = T.Cast("float64", T.float32("nan"))
    M[0] = T.bool(True)
    M[1] = T.bool(False)


# scalar params of every dtype
@T.prim_func
def scalar_params(
    a: T.int8, b: T.int16, c: T.int32, d: T.int64,
    e: T.uint8, f: T.uint16, g: T.uint32, h: T.uint64,
    x: T.float16, y: T.float32, z: T.float64, w: T.bfloat16, p: T.bool,
    out: T.Buffer((1,), "float64"),
):
    if p:
        out[0] = T.Cast("float64", a + T.int8(1)) + T.Cast("float64", b) + T.Cast("float64", c) + T.Cast("float64", d)
    else:
        out[0] = T.Cast("float64", e) + T.Cast("float64", f) + T.Cast("float64", g) + T.Cast("float64", h)
    out[0] = out[0] + T.Cast("float64", x) + T.Cast("float64", y) + z + T.Cast("float64", w)


# vector dtypes: annotated vector lets and vector buffers
@T.prim_func
def vector_dtypes(A: T.Buffer((4,), "float32x4"), B: T.Buffer((2,), "int8x16"), C: T.Buffer((1,), "float16x8")):
    v: T.float32x4 = T.Broadcast(T.float32(1), 4)
    A[0] = v + A[1]
    B[0] = T.Broadcast(T.int8(3), 16)
    C[0] = T.Broadcast(T.float16(0.5), 8)
    i4: T.int32x4 = T.Ramp(0, 1, 4)
    A[2] = T.Cast("float32x4", i4)


# vars declared with dtype constructors and no value, used as symbolic shapes
@T.prim_func
def dtype_vars(a: T.handle):
    n = T.int64()
    m = T.int64()
    A = T.match_buffer(a, (n, m), "float16")
    for i, j in T.grid(n, m):
        A[i, j] = T.float16(0)
