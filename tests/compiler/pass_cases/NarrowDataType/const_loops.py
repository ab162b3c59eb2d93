@T.prim_func
def main(A: T.Buffer((T.int64(16), T.int64(8)), "float32"), B: T.Buffer((T.int64(128),), "float32")):
    for i in range(T.int64(16)):
        for j in range(T.int64(8)):
            B[i * T.int64(8) + j] = A[i, j] + T.float32(1)

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((T.int64(16), T.int64(8)), "float32"), B: T.Buffer((T.int64(128),), "float32")):
        for i, j in T.grid(16, 8):
            B[i * 8 + j] = A[i, j] + T.float32(1.0)
