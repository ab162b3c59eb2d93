# from tvm.script import tirx as T

@T.prim_func
def launch_env_thread(A: T.Buffer((16, 16), "float16"), B: T.Buffer((16, 16), "float32")):
    brow = T.launch_thread("blockIdx.y", 1)
    bcol = T.launch_thread("blockIdx.x", 1)
    tx = T.launch_thread("threadIdx.x", 32)
    for i in range(8):
        B[tx // 2, tx % 2 * 8 + i] = T.Cast("float32", A[tx // 2, tx % 2 * 8 + i])
