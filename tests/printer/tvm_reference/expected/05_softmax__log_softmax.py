# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def log_softmax(A: T.Buffer((16, 256), "float32"), B: T.Buffer((16, 256), "float32")):
    # with T.sblock("root"):
    mx = T.sblock_alloc_buffer((16,))
    s = T.sblock_alloc_buffer((16,))
    for i in range(16):
        for k in range(256):
            with T.sblock("mx"):
                vi, vk = T.axis.remap("SR", [i, k])
                T.reads(A[vi, vk])
                T.writes(mx[vi])
                with T.init():
                    mx[vi] = T.float32(-340282346638528859811704183484516925440.0)
                mx[vi] = T.max(mx[vi], A[vi, vk])
        for k in range(256):
            with T.sblock("sum"):
                vi, vk = T.axis.remap("SR", [i, k])
                T.reads(A[vi, vk], mx[vi])
                T.writes(s[vi])
                with T.init():
                    s[vi] = T.float32(0.0)
                s[vi] = s[vi] + T.exp(A[vi, vk] - mx[vi])
        for j in range(256):
            with T.sblock("out"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(A[vi, vj], mx[vi], s[vi])
                T.writes(B[vi, vj])
                B[vi, vj] = A[vi, vj] - mx[vi] - T.log(s[vi])
