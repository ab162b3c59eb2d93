# The lowered matmul (after LowerOpaqueBlock): parameter buffers keep their 2-D declaration in
# the signature and the body uses 1-D aliases of the same data; the intermediate buffer's
# Allocate gets the flat extent and its DeclBuffer is stripped (TVM v0.20; TVM 0.27 prints
# `A.view(16384)` and AllocBuffer instead).
@T.prim_func
def main(A: T.Buffer((128, 128), "float32"), B: T.Buffer((128, 128), "float32"), C: T.Buffer((128, 128), "float32")):
    D = T.decl_buffer((128, 128))
    for i, j, k in T.grid(128, 128, 128):
        if k == 0:
            D[i, j] = T.float32(0.0)
        D[i, j] = D[i, j] + A[i, k] * B[k, j]
    for i, j in T.grid(128, 128):
        C[i, j] = D[i, j] * T.float32(2.0)


# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((128, 128), "float32"), B: T.Buffer((128, 128), "float32"), C: T.Buffer((128, 128), "float32")):
        D = T.allocate([16384], "float32", "global")
        D_1 = T.Buffer((16384,), data=D)
        for i, j, k in T.grid(128, 128, 128):
            if k == 0:
                D_1[i * 128 + j] = T.float32(0.0)
            A_1 = T.Buffer((16384,), data=A.data)
            B_1 = T.Buffer((16384,), data=B.data)
            D_1[i * 128 + j] = D_1[i * 128 + j] + A_1[i * 128 + k] * B_1[k * 128 + j]
        for i, j in T.grid(128, 128):
            C_1 = T.Buffer((16384,), data=C.data)
            C_1[i * 128 + j] = D_1[i * 128 + j] * T.float32(2.0)
