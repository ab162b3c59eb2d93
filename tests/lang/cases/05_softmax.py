# Softmax: row max, exp-sum and normalize blocks with T.init, T.exp and T.max_value/T.min_value.
from tvm.script import tir as T


# softmax over the last axis, three reduction/elementwise stages
@T.prim_func
def softmax(A: T.Buffer((64, 1024), "float32"), B: T.Buffer((64, 1024), "float32")):
    T.func_attr({"global_symbol": "softmax", "tir.noalias": True})
    maxelem = T.alloc_buffer((64,))
    expsum = T.alloc_buffer((64,))
    for i, k in T.grid(64, 1024):
        with T.block("maxelem"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                maxelem[vi] = T.min_value("float32")
            maxelem[vi] = T.max(maxelem[vi], A[vi, vk])
    for i, k in T.grid(64, 1024):
        with T.block("expsum"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                expsum[vi] = T.float32(0)
            expsum[vi] = expsum[vi] + T.exp(A[vi, vk] - maxelem[vi])
    for i, j in T.grid(64, 1024):
        with T.block("norm"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = T.exp(A[vi, vj] - maxelem[vi]) / expsum[vi]


# log-softmax with an intermediate exp buffer and explicit regions
@T.prim_func
def log_softmax(A: T.Buffer((16, 256), "float32"), B: T.Buffer((16, 256), "float32")):
    mx = T.alloc_buffer((16,), "float32")
    s = T.alloc_buffer((16,), "float32")
    for i in range(16):
        for k in range(256):
            with T.block("mx"):
                vi = T.axis.spatial(16, i)
                vk = T.axis.reduce(256, k)
                T.reads(A[vi, vk])
                T.writes(mx[vi])
                with T.init():
                    mx[vi] = T.float32(-3.4028234663852886e38)
                mx[vi] = T.max(mx[vi], A[vi, vk])
        for k in range(256):
            with T.block("sum"):
                vi, vk = T.axis.remap("SR", [i, k])
                T.reads(A[vi, vk], mx[vi])
                T.writes(s[vi])
                with T.init():
                    s[vi] = T.float32(0)
                s[vi] = s[vi] + T.exp(A[vi, vk] - mx[vi])
        for j in range(256):
            with T.block("out"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = A[vi, vj] - mx[vi] - T.log(s[vi])


# online softmax in lowered form: flat loops with local scalars via allocate
@T.prim_func
def softmax_flat(A: T.Buffer((8192,), "float32"), B: T.Buffer((8192,), "float32")):
    for i in T.parallel(8):
        m = T.allocate([1], "float32", "local")
        m_1 = T.Buffer((1,), data=m, scope="local")
        d = T.allocate([1], "float32", "local")
        d_1 = T.Buffer((1,), data=d, scope="local")
        m_1[0] = T.float32(-3.4028234663852886e38)
        d_1[0] = T.float32(0)
        for k in range(1024):
            m_1[0] = T.max(m_1[0], A[i * 1024 + k])
        for k in range(1024):
            d_1[0] = d_1[0] + T.exp(A[i * 1024 + k] - m_1[0])
        for k in range(1024):
            B[i * 1024 + k] = T.exp(A[i * 1024 + k] - m_1[0]) / d_1[0]
