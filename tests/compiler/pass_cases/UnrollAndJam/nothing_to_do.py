# left alone: a store moving with the inner loop, a copy (no accumulation), an extent with no
# factor, a vectorized inner loop, a load of the accumulated buffer at another index, a call
@T.prim_func
def main(A: T.Buffer((64, 8), "float32"), B: T.Buffer((64,), "float32"), C: T.Buffer((512,), "float32")):
    T.func_attr({"tir.noalias": True})
    for i in range(7):
        for k in range(8):
            C[i * 8 + k] = C[i * 8 + k] + T.float32(1)
    for i in range(64):
        for k in range(8):
            B[i] = T.float32(1)
    for i in range(63):
        for k in range(8):
            B[i] = B[i] + T.float32(1)
    for i in range(64):
        for k in T.vectorized(8):
            B[i] = B[i] + T.float32(1)
    for i in range(64):
        for k in range(8):
            B[i] = B[i] + B[63 - i]
    for i in range(64):
        for k in range(8):
            B[i] = B[i] + T.exp(A[i, k])

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((64, 8), "float32"), B: T.Buffer((64,), "float32"), C: T.Buffer((512,), "float32")):
        T.func_attr({"tir.noalias": True})
        for i, k in T.grid(7, 8):
            C[i * 8 + k] = C[i * 8 + k] + T.float32(1.0)
        for i, k in T.grid(64, 8):
            B[i] = T.float32(1.0)
        for i, k in T.grid(63, 8):
            B[i] = B[i] + T.float32(1.0)
        for i in range(64):
            for k in T.vectorized(8):
                B[i] = B[i] + T.float32(1.0)
        for i, k in T.grid(64, 8):
            B[i] = B[i] + B[63 - i]
        for i, k in T.grid(64, 8):
            B[i] = B[i] + T.exp(A[i, k])
