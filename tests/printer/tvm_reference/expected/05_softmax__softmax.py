# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def softmax(A: T.Buffer((64, 1024), "float32"), B: T.Buffer((64, 1024), "float32")):
    T.func_attr({"tir.noalias": True})
    # with T.sblock("root"):
    maxelem = T.sblock_alloc_buffer((64,))
    expsum = T.sblock_alloc_buffer((64,))
    for i, k in T.grid(64, 1024):
        with T.sblock("maxelem"):
            vi, vk = T.axis.remap("SR", [i, k])
            T.reads(A[vi, vk])
            T.writes(maxelem[vi])
            with T.init():
                maxelem[vi] = T.float32(-340282346638528859811704183484516925440.0)
            maxelem[vi] = T.max(maxelem[vi], A[vi, vk])
    for i, k in T.grid(64, 1024):
        with T.sblock("expsum"):
            vi, vk = T.axis.remap("SR", [i, k])
            T.reads(A[vi, vk], maxelem[vi])
            T.writes(expsum[vi])
            with T.init():
                expsum[vi] = T.float32(0.0)
            expsum[vi] = expsum[vi] + T.exp(A[vi, vk] - maxelem[vi])
    for i, j in T.grid(64, 1024):
        with T.sblock("norm"):
            vi, vj = T.axis.remap("SS", [i, j])
            T.reads(A[vi, vj], maxelem[vi], expsum[vi])
            T.writes(B[vi, vj])
            B[vi, vj] = T.exp(A[vi, vj] - maxelem[vi]) / expsum[vi]
