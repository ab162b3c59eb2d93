# from tvm.script import tirx as T

@T.prim_func
def cuda_target(A: T.Buffer((128,), "float32")):
    T.func_attr({"target": {"kind": "cuda -arch=sm_80"}})
    for tx in T.thread_binding(128, thread="threadIdx.x"):
        A[tx] = T.float32(0.0)
