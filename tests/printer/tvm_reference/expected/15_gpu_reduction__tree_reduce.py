# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def tree_reduce(A: T.Buffer((8, 256), "float32"), B: T.Buffer((8,), "float32")):
    # with T.sblock("root"):
    for bx in T.thread_binding(8, thread="blockIdx.x"):
        for tx in T.thread_binding(256, thread="threadIdx.x"):
            with T.sblock("reduce"):
                T.reads(A[bx, 0:256])
                T.writes(B[bx])
                sdata = T.sblock_alloc_buffer((256,), scope="shared")
                sdata[tx] = A[bx, tx]
                T.tvm_storage_sync("shared")
                for s in T.unroll(8):
                    if tx < 128 >> s:
                        sdata[tx] = sdata[tx] + sdata[tx + (128 >> s)]
                    T.tvm_storage_sync("shared")
                if tx == 0:
                    B[bx] = sdata[0]
