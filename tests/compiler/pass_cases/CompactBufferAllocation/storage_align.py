# A buffer_dim_align annotation (axis 0: factor 16, offset 15) gives the compacted (1, 16)
# buffer the padded strides (31, 1) (TVM test_storage_align).
@T.prim_func
def main(A: T.Buffer((16, 16), "float32"), C: T.Buffer((16, 16), "float32")):
    for i in range(0, 16):
        with T.block():
            T.reads(A[i, 0:16])
            T.writes(C[i, 0:16])
            B = T.alloc_buffer((16, 16), "float32")
            for j in range(0, 16):
                with T.block():
                    T.reads(A[i, j])
                    T.writes(B[i, j])
                    T.block_attr({"buffer_dim_align": [[0, 0, 16, 15]]})
                    B[i, j] = A[i, j] + 1.0
            for j in range(0, 16):
                with T.block():
                    T.reads(B[i, j])
                    T.writes(C[i, j])
                    C[i, j] = B[i, j] * 2.0


# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16, 16), "float32"), C: T.Buffer((16, 16), "float32")):
        # with T.block("root"):
        for i in range(16):
            with T.block(""):
                T.reads(A[i, 0:16])
                T.writes(C[i, 0:16])
                B = T.alloc_buffer((1, 16), strides=(31, 1))
                for j in range(16):
                    with T.block(""):
                        T.reads(A[i, j])
                        T.writes(B[i - i, j])
                        T.block_attr({"buffer_dim_align": [[0, 0, 16, 15]]})
                        B[i - i, j] = A[i, j] + T.float32(1.0)
                for j in range(16):
                    with T.block(""):
                        T.reads(B[i - i, j])
                        T.writes(C[i, j])
                        C[i, j] = B[i - i, j] * T.float32(2.0)
