# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def gpu_opaque(A: T.Buffer((64, 64), "float32"), B: T.Buffer((64,), "float32")):
    # with T.sblock("root"):
    for bx in T.thread_binding(64, thread="blockIdx.x"):
        for tx in T.thread_binding(1, thread="threadIdx.x"):
            with T.sblock("row"):
                vb = T.axis.spatial(64, bx)
                T.reads(A[vb, 0:64])
                T.writes(B[vb])
                acc = T.sblock_alloc_buffer((1,), scope="local")
                acc[0] = T.float32(0.0)
                for k in range(64):
                    acc[0] = acc[0] + A[vb, k]
                B[vb] = acc[0]
