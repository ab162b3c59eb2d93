# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def layer_norm(A: T.Buffer((32, 768), "float32"), gamma: T.Buffer((768,), "float32"), beta: T.Buffer((768,), "float32"), B: T.Buffer((32, 768), "float32")):
    # with T.sblock("root"):
    mean = T.sblock_alloc_buffer((32,))
    sq = T.sblock_alloc_buffer((32,))
    for i, k in T.grid(32, 768):
        with T.sblock("stats"):
            vi, vk = T.axis.remap("SR", [i, k])
            T.reads(A[vi, vk])
            T.writes(mean[vi], sq[vi])
            with T.init():
                mean[vi] = T.float32(0.0)
                sq[vi] = T.float32(0.0)
            mean[vi] = mean[vi] + A[vi, vk]
            sq[vi] = sq[vi] + A[vi, vk] * A[vi, vk]
    for i, j in T.grid(32, 768):
        with T.sblock("norm"):
            vi, vj = T.axis.remap("SS", [i, j])
            T.reads(A[vi, vj], mean[vi], sq[vi], gamma[vj], beta[vj])
            T.writes(B[vi, vj])
            B[vi, vj] = (A[vi, vj] - mean[vi] / T.float32(768.0)) * T.rsqrt(sq[vi] / T.float32(768.0) - mean[vi] / T.float32(768.0) * (mean[vi] / T.float32(768.0)) + T.float32(1.0000000000000001e-05)) * gamma[vj] + beta[vj]
