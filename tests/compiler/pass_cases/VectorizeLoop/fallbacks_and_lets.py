@T.prim_func
def main(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32"), n: T.int32):
    for i in T.vectorized(6):
        if B[i] > T.float32(0):
            A[i] = B[i]
    for i in T.vectorized(4):
        A[i] = T.Select(i < n, B[i], T.float32(0))
    for i in T.vectorized(4):
        x: T.float32 = B[i] + T.float32(1)
        A[i + 1] = x * x
    for i in T.vectorized(4):
        if n > 2:
            A[i] = T.float32(1)
    for i in T.vectorized(4):
        A[i * 2] = T.exp(B[i])
    for i in T.vectorized(4):
        A[0] = T.max(A[0], B[i])

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32"), n: T.int32):
        for i_s in range(6):
            if B[i_s] > T.float32(0.0):
                A[i_s] = B[i_s]
        A[0:4] = T.Select(T.Ramp(0, 1, 4) < T.Broadcast(n, 4), B[T.Ramp(0, 1, 4)], T.Broadcast(T.float32(0.0), 4))
        with T.LetStmt(B[T.Ramp(0, 1, 4)] + T.Broadcast(T.float32(1.0), 4)) as x:
            A[1:5] = x * x
        if n > 2:
            A[0:4] = T.Broadcast(T.float32(1.0), 4)
        A[0:8:2] = T.exp(B[T.Ramp(0, 1, 4)])
        A[T.Broadcast(0, 4)] = T.max(T.Broadcast(A[0], 4), B[T.Ramp(0, 1, 4)])
