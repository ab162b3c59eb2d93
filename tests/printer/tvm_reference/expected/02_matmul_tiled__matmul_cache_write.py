# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def matmul_cache_write(A: T.Buffer((256, 256), "float32"), B: T.Buffer((256, 256), "float32"), C: T.Buffer((256, 256), "float32")):
    # with T.sblock("root"):
    C_local = T.sblock_alloc_buffer((256, 256), scope="local")
    for io, jo in T.grid(16, 16):
        for ii, ji, k in T.grid(16, 16, 256):
            with T.sblock("C_local"):
                vi = T.axis.spatial(256, io * 16 + ii)
                vj = T.axis.spatial(256, jo * 16 + ji)
                vk = T.axis.reduce(256, k)
                T.reads(A[vi, vk], B[vk, vj])
                T.writes(C_local[vi, vj])
                with T.init():
                    C_local[vi, vj] = T.float32(0.0)
                C_local[vi, vj] = C_local[vi, vj] + A[vi, vk] * B[vk, vj]
        for ii, ji in T.grid(16, 16):
            with T.sblock("C_write"):
                vi = T.axis.spatial(256, io * 16 + ii)
                vj = T.axis.spatial(256, jo * 16 + ji)
                T.reads(C_local[vi, vj])
                T.writes(C[vi, vj])
                C[vi, vj] = C_local[vi, vj]
