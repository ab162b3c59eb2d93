# from tvm.script import tirx as T

@T.prim_func
def launch_by_name(A: T.Buffer((1024,), "float32"), B: T.Buffer((1024,), "float32")):
    T.func_attr({"target": {"kind": "cuda"}, "tir.noalias": True})
    bx = T.launch_thread("blockIdx.x", 8)
    tx = T.launch_thread("threadIdx.x", 128)
    B[bx * 128 + tx] = A[bx * 128 + tx] + T.float32(1.0)
