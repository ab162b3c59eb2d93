# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def tk_gpu(A: T.Buffer((1024,), "float32"), B: T.Buffer((1024,), "float32")):
    # with T.sblock("root"):
    for bx in T.thread_binding(8, thread="blockIdx.x"):
        for tx in T.thread_binding(128, thread="threadIdx.x"):
            with T.sblock("B"):
                vi = T.axis.spatial(1024, bx * 128 + tx)
                T.reads(A[vi])
                T.writes(B[vi])
                B[vi] = T.exp(A[vi])
