# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def gpu_add(A: T.Buffer((4096,), "float32"), B: T.Buffer((4096,), "float32"), C: T.Buffer((4096,), "float32")):
    T.func_attr({"tir.noalias": True})
    # with T.sblock("root"):
    for bx in T.thread_binding(32, thread="blockIdx.x"):
        for tx in T.thread_binding(128, thread="threadIdx.x"):
            with T.sblock("C"):
                vi = T.axis.spatial(4096, bx * 128 + tx)
                T.reads(A[vi], B[vi])
                T.writes(C[vi])
                C[vi] = A[vi] + B[vi]
