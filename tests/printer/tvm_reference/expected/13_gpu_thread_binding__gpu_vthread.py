# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def gpu_vthread(A: T.Buffer((256,), "float32"), B: T.Buffer((256,), "float32")):
    # with T.sblock("root"):
    for bx in T.thread_binding(4, thread="blockIdx.x"):
        for vx in T.thread_binding(2, thread="vthread.x"):
            for tx in T.thread_binding(32, thread="threadIdx.x"):
                with T.sblock("B"):
                    vi = T.axis.spatial(256, bx * 64 + vx * 32 + tx)
                    T.reads(A[vi])
                    T.writes(B[vi])
                    B[vi] = A[vi] * T.float32(2.0)
