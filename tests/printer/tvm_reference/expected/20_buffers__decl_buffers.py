# from tvm.script import tirx as T

@T.prim_func
def decl_buffers(A: T.Buffer((64,), "float32")):
    A_2d = A.view(8, 8)
    A_4x16 = A.view(4, 16)
    for i, j in T.grid(4, 16):
        A_4x16[i, j] = A_2d[i, j % 8] + T.float32(1.0)
