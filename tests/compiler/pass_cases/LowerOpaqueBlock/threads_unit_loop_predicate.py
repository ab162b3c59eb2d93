# Thread-binding loops become T.launch_thread, a unit loop disappears (its var replaced by
# the loop min), a block predicate becomes an `if`, a "shared" allocation keeps its scope.
@T.prim_func
def main(A: T.Buffer((100,), "float32"), C: T.Buffer((100,), "float32")):
    for bx in T.thread_binding(0, 4, thread="blockIdx.x"):
        for tx in T.thread_binding(0, 32, thread="threadIdx.x"):
            for u in range(1):
                with T.block():
                    T.where(bx * 32 + tx < 100)
                    T.reads(A[bx * 32 + tx + u])
                    T.writes(C[bx * 32 + tx + u])
                    S = T.alloc_buffer([1], "float32", scope="shared")
                    S[u] = A[bx * 32 + tx + u]
                    C[bx * 32 + tx + u] = S[u] * T.float32(2)


# output
@T.prim_func
def main(A: T.Buffer((100,), "float32"), C: T.Buffer((100,), "float32")):
    bx = T.launch_thread("blockIdx.x", 4)
    tx = T.launch_thread("threadIdx.x", 32)
    S = T.decl_buffer((1,), scope="shared")
    if bx * 32 + tx < 100:
        S[0] = A[bx * 32 + tx]
        C[bx * 32 + tx] = S[0] * T.float32(2)
