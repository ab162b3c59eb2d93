# A block matching a 4x4 tile of A: accesses to the tile become accesses to A shifted by the
# tile origin, the block's reads/writes name A, match_buffers is emptied.
@T.prim_func
def main(A: T.Buffer((16, 16), "float32"), C: T.Buffer((16, 16), "float32")):
    for i0, j0 in T.grid(4, 4):
        with T.block():
            T.reads(A[i0 * 4:i0 * 4 + 4, j0 * 4:j0 * 4 + 4])
            T.writes(C[i0 * 4:i0 * 4 + 4, j0 * 4:j0 * 4 + 4])
            At = T.match_buffer(A[i0 * 4:i0 * 4 + 4, j0 * 4:j0 * 4 + 4], (4, 4), offset_factor=1)
            Ct = T.match_buffer(C[i0 * 4:i0 * 4 + 4, j0 * 4:j0 * 4 + 4], (4, 4), offset_factor=1)
            for i1, j1 in T.grid(4, 4):
                with T.block():
                    T.reads(At[i1, j1])
                    T.writes(Ct[i1, j1])
                    Ct[i1, j1] = At[i1, j1] * T.float32(2)


# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16, 16), "float32"), C: T.Buffer((16, 16), "float32")):
        # with T.block("root"):
        for i0, j0 in T.grid(4, 4):
            with T.block(""):
                T.reads(A[i0 * 4:i0 * 4 + 4, j0 * 4:j0 * 4 + 4])
                T.writes(C[i0 * 4:i0 * 4 + 4, j0 * 4:j0 * 4 + 4])
                for i1, j1 in T.grid(4, 4):
                    with T.block(""):
                        T.reads(A[i0 * 4 + i1, j0 * 4 + j1])
                        T.writes(C[i0 * 4 + i1, j0 * 4 + j1])
                        C[i0 * 4 + i1, j0 * 4 + j1] = A[i0 * 4 + i1, j0 * 4 + j1] * T.float32(2.0)
