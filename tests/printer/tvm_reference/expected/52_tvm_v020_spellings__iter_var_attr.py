# from tvm.script import tirx as T

@T.prim_func
def iter_var_attr(A: T.Buffer((256,), "float32")):
    tx = T.launch_thread("threadIdx.x", 256)
    A[tx] = A[tx] + T.float32(1.0)
