# Symbolic strides and elem_offset used opaquely by T.tvm_access_ptr: they are bound to the
# source's strides (16, 1) and to the tile's offset, and substituted (TVM's
# test_tir_transform_lower_match_buffer.py, opaque_access).
@T.prim_func
def main(a: T.handle, b: T.handle) -> None:
    A = T.match_buffer(a, (32, 64, 128))
    B = T.match_buffer(b, (64, 64, 64))
    for i, j, k in T.grid(2, 64, 8):
        with T.block():
            T.reads([])
            T.writes(A[i * 16 : i * 16 + 16, j, k * 16 : k * 16 + 16])
            sub_A = T.match_buffer(A[i * 16 : i * 16 + 16, j, k * 16 : k * 16 + 16], (16, 1, 16), strides=[8192, 128, 1], offset_factor=1)
            T.evaluate(T.call_extern("handle", "intrin_test", sub_A.data, sub_A.elem_offset, sub_A.strides[0], sub_A.strides[1], sub_A.shape[0], sub_A.shape[1]))
    for i, j, k in T.grid(64, 2, 8):
        with T.block():
            Bs_0 = T.int32()
            Bs_1 = T.int32()
            T.reads([])
            T.writes(B[i, j * 32 : j * 32 + 32, k * 8 : k * 8 + 8])
            sub_B = T.match_buffer(B[i, j * 32 : j * 32 + 32, k * 8 : k * 8 + 8], (32, 8), strides=[Bs_0, Bs_1], offset_factor=1)
            T.evaluate(T.call_extern("handle", "intrin_test", sub_B.data, sub_B.elem_offset, sub_B.strides[0], sub_B.strides[1], sub_B.shape[0], sub_B.shape[1]))


# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((32, 64, 128), "float32"), B: T.Buffer((64, 64, 64), "float32")):
        # with T.block("root"):
        for i, j, k in T.grid(2, 64, 8):
            with T.block(""):
                T.reads()
                T.writes(A[i * 16:i * 16 + 16, j, k * 16:k * 16 + 16])
                T.call_extern("handle", "intrin_test", A.data, i * 131072 + j * 128 + k * 16, 8192, 128, 16, 1)
        for i, j, k in T.grid(64, 2, 8):
            with T.block(""):
                T.reads()
                T.writes(B[i, j * 32:j * 32 + 32, k * 8:k * 8 + 8])
                T.call_extern("handle", "intrin_test", B.data, i * 4096 + j * 2048 + k * 8, 64, 1, 32, 8)
