# The buffer allocated under loop `i` only needs one row: (16, 16) -> (1, 16), every access
# shifted by the region's min (TVM's test_tir_transform_compact_buffer_region.py, elementwise).
@T.prim_func
def main(a: T.handle, c: T.handle) -> None:
    A = T.match_buffer(a, (16, 16), "float32")
    C = T.match_buffer(c, (16, 16), "float32")
    for i in range(0, 16):
        with T.block():
            T.reads(A[i, 0:16])
            T.writes(C[i, 0:16])
            B = T.alloc_buffer((16, 16), "float32")
            for j in range(0, 16):
                with T.block():
                    T.reads(A[i, j])
                    T.writes(B[i, j])
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
                B = T.alloc_buffer((1, 16))
                for j in range(16):
                    with T.block(""):
                        T.reads(A[i, j])
                        T.writes(B[i - i, j])
                        B[i - i, j] = A[i, j] + T.float32(1.0)
                for j in range(16):
                    with T.block(""):
                        T.reads(B[i - i, j])
                        T.writes(C[i, j])
                        C[i, j] = B[i - i, j] * T.float32(2.0)
