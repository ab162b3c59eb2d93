# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def rfactor_sum(A: T.Buffer((128, 128), "float32"), B: T.Buffer((128,), "float32")):
    # with T.sblock("root"):
    B_rf = T.sblock_alloc_buffer((128, 32), scope="local")
    for i in T.thread_binding(128, thread="blockIdx.x"):
        for ki in T.thread_binding(32, thread="threadIdx.x"):
            for ko in range(4):
                with T.sblock("B_rf"):
                    vki, vi, vko = T.axis.remap("SSR", [ki, i, ko])
                    T.reads(A[vi, vko * 32 + vki])
                    T.writes(B_rf[vi, vki])
                    with T.init():
                        B_rf[vi, vki] = T.float32(0.0)
                    B_rf[vi, vki] = B_rf[vi, vki] + A[vi, vko * 32 + vki]
        for ki in T.thread_binding(32, thread="threadIdx.x"):
            with T.sblock("B"):
                vki, vi = T.axis.remap("RS", [ki, i])
                T.reads(B_rf[vi, vki])
                T.writes(B[vi])
                with T.init():
                    B[vi] = T.float32(0.0)
                B[vi] = B[vi] + B_rf[vi, vki]
