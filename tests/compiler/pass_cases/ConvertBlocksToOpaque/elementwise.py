# (Expected written from TVM's test; TVM 0.27 rejects the input as not well-formed.)
# Two chained blocks with an intermediate buffer: iter vars are replaced by the loop vars
# they are bound to (TVM's test_tir_transform_convert_blocks_to_opaque.py).
@T.prim_func
def main(A: T.Buffer((16, 16), "float32"), C: T.Buffer((16, 16), "float32")):
    for i in T.serial(0, 16):
        with T.block():
            B = T.alloc_buffer((16, 16), "float32")
            for j in T.serial(0, 16):
                with T.block("B"):
                    vi = T.axis.spatial(16, i)
                    vj = T.axis.spatial(16, j)
                    B[vi, vj] = A[vi, vj] + 1.0
            for j in T.serial(0, 16):
                with T.block("C"):
                    vi = T.axis.spatial(16, i)
                    vj = T.axis.spatial(16, j)
                    C[vi, vj] = B[vi, vj] * 2.0


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
                B = T.alloc_buffer((16, 16))
                for j in range(16):
                    with T.block("B"):
                        T.reads(A[i, j])
                        T.writes(B[i, j])
                        B[i, j] = A[i, j] + T.float32(1.0)
                for j in range(16):
                    with T.block("C"):
                        T.reads(B[i, j])
                        T.writes(C[i, j])
                        C[i, j] = B[i, j] * T.float32(2.0)
