# A 4x4 tile of a (64, 64) buffer indexed with the outer loops: the tile keeps its offset
# (i0 * 4, j0 * 4) subtracted from every access and from the inner blocks' regions.
@T.prim_func
def main(A: T.Buffer((64, 64), "float32"), C: T.Buffer((64, 64), "float32")):
    for i0, j0 in T.grid(16, 16):
        with T.block():
            T.reads(A[i0 * 4:i0 * 4 + 4, j0 * 4:j0 * 4 + 4])
            T.writes(C[i0 * 4:i0 * 4 + 4, j0 * 4:j0 * 4 + 4])
            B = T.alloc_buffer((64, 64), "float32")
            for i1, j1 in T.grid(4, 4):
                with T.block():
                    T.reads(A[i0 * 4 + i1, j0 * 4 + j1])
                    T.writes(B[i0 * 4 + i1, j0 * 4 + j1])
                    B[i0 * 4 + i1, j0 * 4 + j1] = A[i0 * 4 + i1, j0 * 4 + j1] + T.float32(1)
            for i1, j1 in T.grid(4, 4):
                with T.block():
                    T.reads(B[i0 * 4 + i1, j0 * 4 + j1])
                    T.writes(C[i0 * 4 + i1, j0 * 4 + j1])
                    C[i0 * 4 + i1, j0 * 4 + j1] = B[i0 * 4 + i1, j0 * 4 + j1] * T.float32(2)


# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((64, 64), "float32"), C: T.Buffer((64, 64), "float32")):
        # with T.block("root"):
        for i0, j0 in T.grid(16, 16):
            with T.block(""):
                T.reads(A[i0 * 4:i0 * 4 + 4, j0 * 4:j0 * 4 + 4])
                T.writes(C[i0 * 4:i0 * 4 + 4, j0 * 4:j0 * 4 + 4])
                B = T.alloc_buffer((4, 4))
                for i1, j1 in T.grid(4, 4):
                    with T.block(""):
                        T.reads(A[i0 * 4 + i1, j0 * 4 + j1])
                        T.writes(B[i0 * 4 + i1 - i0 * 4, j0 * 4 + j1 - j0 * 4])
                        B[i0 * 4 + i1 - i0 * 4, j0 * 4 + j1 - j0 * 4] = A[i0 * 4 + i1, j0 * 4 + j1] + T.float32(1.0)
                for i1, j1 in T.grid(4, 4):
                    with T.block(""):
                        T.reads(B[i0 * 4 + i1 - i0 * 4, j0 * 4 + j1 - j0 * 4])
                        T.writes(C[i0 * 4 + i1, j0 * 4 + j1])
                        C[i0 * 4 + i1, j0 * 4 + j1] = B[i0 * 4 + i1 - i0 * 4, j0 * 4 + j1 - j0 * 4] * T.float32(2.0)
