# A 1-D buffer matched to a row of a 2-D buffer: the leading source dimension (extent 1)
# keeps its index; vectorized inner loop.
@T.prim_func
def main(A: T.Buffer((8, 16), "float32"), B: T.Buffer((8, 16), "float32")):
    for i in range(8):
        with T.block():
            T.reads(A[i, 0:16])
            T.writes(B[i, 0:16])
            Ar = T.match_buffer(A[i, 0:16], (16,), offset_factor=1)
            Br = T.match_buffer(B[i, 0:16], (16,), offset_factor=1)
            for j in T.vectorized(16):
                Br[j] = Ar[j] + T.float32(1)


# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((8, 16), "float32"), B: T.Buffer((8, 16), "float32")):
        # with T.block("root"):
        for i in range(8):
            with T.block(""):
                T.reads(A[i, 0:16])
                T.writes(B[i, 0:16])
                for j in T.vectorized(16):
                    B[i, j] = A[i, j] + T.float32(1.0)
