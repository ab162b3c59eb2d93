from tvm.script import tir as T


# T.broadcast / T.ramp in lower case, a buffer's stride read as A0.strides[0] (the parser
# folds it to 16), a constant stored into a buffer of another dtype (the parser casts it),
# a value the parser casts on the store, a cast written T.float32(x) and the default dtype of
# a `with T.decl_buffer(...) as buf` stay as written
@T.prim_func
def spellings(a: T.handle, B: T.Buffer((4,), "int32"), H: T.Buffer((16,), "float16")):
    A = T.match_buffer(a, (16, 16), "float16")
    for i in range(4):
        with T.block("b"):
            vi = T.axis.spatial(4, i)
            A0 = T.match_buffer(A[vi*4:vi*4+4, 0:16], (4, 16), "float16", strides=[16, 1], offset_factor=1)
            T.evaluate(T.call_extern("int32", "f", A0.data, A0.elem_offset, A0.strides[0]))
    B[0:4] = T.broadcast(1, 4)
    B[0:4] = T.ramp(0,1,4)
    for i in range(16):
        H[i] = T.float32(0)
        H[i] = T.float32(i)
        H[i] = H[i] + T.float16(T.float32(i) * T.float32(2))
    with T.decl_buffer([16], "float32") as buf:
        buf[0] = 0.0


# a value bound without an annotation stays so (int8x128 has no T. name to annotate it with)
@T.prim_func
def vector_let(C: T.Buffer((128,), "int8"), D: T.Buffer((128,), "int8")):
    c_i8x128 = C[0:128]
    D[0:128] = c_i8x128
# output
from tvm.script import tir as T


# T.broadcast / T.ramp in lower case, a buffer's stride read as A0.strides[0] (the parser
# folds it to 16), a constant stored into a buffer of another dtype (the parser casts it),
# a value the parser casts on the store, a cast written T.float32(x) and the default dtype of
# a `with T.decl_buffer(...) as buf` stay as written
@T.prim_func
def spellings(a: T.handle, B: T.Buffer((4,), "int32"), H: T.Buffer((16,), "float16")):
    A = T.match_buffer(a, (16, 16), "float16")
    for i in range(4):
        with T.block("b"):
            vi = T.axis.spatial(4, i)
            A0 = T.match_buffer(
                A[vi * 4:vi * 4 + 4, 0:16],
                (4, 16),
                "float16",
                strides=(16, 1),
                offset_factor=1
            )
            T.evaluate(T.call_extern("int32", "f", A0.data, A0.elem_offset, A0.strides[0]))
    B[0:4] = T.broadcast(1, 4)
    B[0:4] = T.ramp(0, 1, 4)
    for i in range(16):
        H[i] = T.float32(0)
        H[i] = T.float32(i)
        H[i] = H[i] + T.float16(T.float32(i) * T.float32(2))
    with T.decl_buffer((16,), "float32") as buf:
        buf[0] = T.float32(0.0)


# a value bound without an annotation stays so (int8x128 has no T. name to annotate it with)
@T.prim_func
def vector_let(C: T.Buffer((128,), "int8"), D: T.Buffer((128,), "int8")):
    c_i8x128 = C[0:128]
    D[0:128] = c_i8x128
