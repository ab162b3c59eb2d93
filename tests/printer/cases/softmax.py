@T.prim_func
def softmax(A: T.Buffer((64, 128), "float32"), B: T.Buffer((64, 128), "float32")):
    T.func_attr({"global_symbol": "softmax", "tir.noalias": True})
    maxv = T.alloc_buffer((64,))
    expsum = T.alloc_buffer((64,))
    for i, k in T.grid(64, 128):
        with T.block("maxv"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                maxv[vi] = T.float32(-3.4028234663852886e+38)
            maxv[vi] = T.max(maxv[vi], A[vi, vk])
    for i, k in T.grid(64, 128):
        with T.block("expsum"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                expsum[vi] = T.float32(0)
            expsum[vi] = expsum[vi] + T.exp(A[vi, vk] - maxv[vi])
    for i, j in T.grid(64, 128):
        with T.block("norm"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = T.exp(A[vi, vj] - maxv[vi]) / expsum[vi]
# output
# from tvm.script import tir as T

@T.prim_func
def softmax(A: T.Buffer((64, 128), "float32"), B: T.Buffer((64, 128), "float32")):
    T.func_attr({"tir.noalias": True})
    # with T.block("root"):
    maxv = T.alloc_buffer((64,))
    expsum = T.alloc_buffer((64,))
    for i, k in T.grid(64, 128):
        with T.block("maxv"):
            vi, vk = T.axis.remap("SR", [i, k])
            T.reads(A[vi, vk])
            T.writes(maxv[vi])
            with T.init():
                maxv[vi] = T.float32(-340282346638528859811704183484516925440.0)
            maxv[vi] = T.max(maxv[vi], A[vi, vk])
    for i, k in T.grid(64, 128):
        with T.block("expsum"):
            vi, vk = T.axis.remap("SR", [i, k])
            T.reads(A[vi, vk], maxv[vi])
            T.writes(expsum[vi])
            with T.init():
                expsum[vi] = T.float32(0.0)
            expsum[vi] = expsum[vi] + T.exp(A[vi, vk] - maxv[vi])
    for i, j in T.grid(64, 128):
        with T.block("norm"):
            vi, vj = T.axis.remap("SS", [i, j])
            T.reads(A[vi, vj], maxv[vi], expsum[vi])
            T.writes(B[vi, vj])
            B[vi, vj] = T.exp(A[vi, vj] - maxv[vi]) / expsum[vi]
