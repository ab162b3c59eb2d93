# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def gpu_matmul_shared(A: T.Buffer((1024, 1024), "float32"), B: T.Buffer((1024, 1024), "float32"), C: T.Buffer((1024, 1024), "float32")):
    # with T.sblock("root"):
    A_shared = T.sblock_alloc_buffer((1024, 1024), scope="shared")
    B_shared = T.sblock_alloc_buffer((1024, 1024), scope="shared")
    C_local = T.sblock_alloc_buffer((1024, 1024), scope="local")
    for by in T.thread_binding(32, thread="blockIdx.y"):
        for bx in T.thread_binding(32, thread="blockIdx.x"):
            for ty in T.thread_binding(32, thread="threadIdx.y"):
                for tx in T.thread_binding(32, thread="threadIdx.x"):
                    for ko in range(32):
                        with T.sblock("A_shared"):
                            v0 = T.axis.spatial(1024, by * 32 + ty)
                            v1 = T.axis.spatial(1024, ko * 32 + tx)
                            T.reads(A[v0, v1])
                            T.writes(A_shared[v0, v1])
                            A_shared[v0, v1] = A[v0, v1]
                        with T.sblock("B_shared"):
                            v0 = T.axis.spatial(1024, ko * 32 + ty)
                            v1 = T.axis.spatial(1024, bx * 32 + tx)
                            T.reads(B[v0, v1])
                            T.writes(B_shared[v0, v1])
                            B_shared[v0, v1] = B[v0, v1]
                        for ki in range(32):
                            with T.sblock("C_local"):
                                vi = T.axis.spatial(1024, by * 32 + ty)
                                vj = T.axis.spatial(1024, bx * 32 + tx)
                                vk = T.axis.reduce(1024, ko * 32 + ki)
                                T.reads(A_shared[vi, vk], B_shared[vk, vj])
                                T.writes(C_local[vi, vj])
                                with T.init():
                                    C_local[vi, vj] = T.float32(0.0)
                                C_local[vi, vj] = C_local[vi, vj] + A_shared[vi, vk] * B_shared[vk, vj]
                    with T.sblock("C_write"):
                        vi = T.axis.spatial(1024, by * 32 + ty)
                        vj = T.axis.spatial(1024, bx * 32 + tx)
                        T.reads(C_local[vi, vj])
                        T.writes(C[vi, vj])
                        C[vi, vj] = C_local[vi, vj]
