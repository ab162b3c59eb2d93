# GPU-style: a "shared" buffer allocated inside threadIdx.x keeps the extent of the whole
# thread loop (shared memory is relaxed over threadIdx), a "local" one is per thread.
@T.prim_func
def main(A: T.Buffer((16, 16), "float32"), C: T.Buffer((16, 16), "float32")):
    for i in T.thread_binding(0, 16, thread="blockIdx.x"):
        for j in T.thread_binding(0, 16, thread="threadIdx.x"):
            with T.block():
                T.reads(A[i, j])
                T.writes(C[i, j])
                S = T.alloc_buffer((16, 16), "float32", scope="shared")
                L = T.alloc_buffer((16, 16), "float32", scope="local")
                with T.block():
                    T.reads(A[i, j])
                    T.writes(S[i, j])
                    S[i, j] = A[i, j] + T.float32(1)
                with T.block():
                    T.reads(S[i, j])
                    T.writes(L[i, j])
                    L[i, j] = S[i, j] * T.float32(2)
                with T.block():
                    T.reads(L[i, j])
                    T.writes(C[i, j])
                    C[i, j] = L[i, j]


# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16, 16), "float32"), C: T.Buffer((16, 16), "float32")):
        # with T.block("root"):
        for i in T.thread_binding(16, thread="blockIdx.x"):
            for j in T.thread_binding(16, thread="threadIdx.x"):
                with T.block(""):
                    T.reads(A[i, j])
                    T.writes(C[i, j])
                    S = T.alloc_buffer((1, 16), scope="shared")
                    L = T.alloc_buffer((1, 1), scope="local")
                    with T.block(""):
                        T.reads(A[i, j])
                        T.writes(S[i - i, j])
                        S[i - i, j] = A[i, j] + T.float32(1.0)
                    with T.block(""):
                        T.reads(S[i - i, j])
                        T.writes(L[i - i, j - j])
                        L[i - i, j - j] = S[i - i, j] * T.float32(2.0)
                    with T.block(""):
                        T.reads(L[i - i, j - j])
                        T.writes(C[i, j])
                        C[i, j] = L[i - i, j - j]
