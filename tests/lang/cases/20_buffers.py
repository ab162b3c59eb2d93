# Buffer declarations: old T.Buffer[...] annotations, match_buffer options, T.Buffer over a pointer.
from tvm.script import tir as T


# the deprecated subscript form of T.Buffer in annotations
@T.prim_func
def old_buffer_subscript(A: T.Buffer[(128,), "float32"], B: T.Buffer[(128,), "float32"]):
    for i in range(128):
        B[i] = A[i] + T.float32(1)


# match_buffer with strides, elem_offset, offset_factor, align and scope
@T.prim_func
def match_buffer_options(a: T.handle, b: T.handle):
    s0 = T.int32()
    s1 = T.int32()
    off = T.int32()
    A = T.match_buffer(a, (16, 16), "float32", strides=[s0, s1], elem_offset=off, offset_factor=4, align=64)
    B = T.match_buffer(b, (16, 16), "float32", scope="global", offset_factor=1, align=128)
    for i, j in T.grid(16, 16):
        with T.block("copy"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj]


# match_buffer with a fixed elem_offset and keyword dtype
@T.prim_func
def match_buffer_kw(a: T.handle):
    A = T.match_buffer(a, shape=(4, 4), dtype="int32", elem_offset=0, align=64, offset_factor=1)
    for i, j in T.grid(4, 4):
        A[i, j] = i + j


# T.Buffer with data= another buffer's data (a reinterpreting view)
@T.prim_func
def buffer_view(A: T.Buffer((4, 8), "float32")):
    A_flat = T.Buffer((32,), data=A.data)
    for i in range(32):
        A_flat[i] = T.float32(0)


# T.Buffer parameters with strides and a non-global scope in the annotation
@T.prim_func
def strided_param(A: T.Buffer((8, 8), "float32", strides=(16, 1)), B: T.Buffer((8,), "float32", scope="global")):
    for i in range(8):
        B[i] = A[i, i]


# decl_buffer with the concise form and the with form
@T.prim_func
def decl_buffers(A: T.Buffer((64,), "float32")):
    A_2d = T.decl_buffer((8, 8), "float32", data=A.data)
    with T.decl_buffer((4, 16), "float32", data=A.data) as A_4x16:
        for i, j in T.grid(4, 16):
            A_4x16[i, j] = A_2d[i, j % 8] + T.float32(1)


# buffers of several dtypes in one signature, default dtype float32
@T.prim_func
def mixed_dtypes(
    A: T.Buffer((4,), "int8"),
    B: T.Buffer((4,), "uint16"),
    C: T.Buffer((4,), "float64"),
    D: T.Buffer((4,), "bool"),
    E: T.Buffer(4),
):
    for i in range(4):
        C[i] = T.Cast("float64", A[i]) + T.Cast("float64", B[i])
        D[i] = A[i] > T.int8(0)
        E[i] = T.Cast("float32", C[i])
