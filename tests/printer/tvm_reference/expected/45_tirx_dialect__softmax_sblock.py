# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def softmax_sblock(A: T.Buffer((8, 64), "float32"), B: T.Buffer((8, 64), "float32")):
    # with T.sblock("root"):
    mx = T.alloc_buffer((8,))
    for i, k in T.grid(8, 64):
        with T.sblock("mx"):
            vi, vk = T.axis.remap("SR", [i, k])
            T.reads(A[vi, vk])
            T.writes(mx[vi])
            with T.init():
                mx[vi] = T.float32(-340282346638528859811704183484516925440.0)
            mx[vi] = T.max(mx[vi], A[vi, vk])
    for i, j in T.grid(8, 64):
        with T.sblock("out"):
            vi, vj = T.axis.remap("SS", [i, j])
            T.reads(A[vi, vj], mx[vi])
            T.writes(B[vi, vj])
            B[vi, vj] = T.exp(A[vi, vj] - mx[vi])
