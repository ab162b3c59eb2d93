# flags: dialect=tirx
@T.prim_func
def views(A: T.Buffer((64,), "float32")):
    A_2d = T.decl_buffer((8, 8), data=A.data)
    A_u32 = T.decl_buffer((64,), "uint32", data=A.data)
    for i, j in T.grid(8, 8):
        A_2d[i, j] = T.reinterpret("float32", A_u32[i * 8 + j] + T.uint32(1))
# output
# from tvm.script import tirx as T

@T.prim_func
def views(A: T.Buffer((64,), "float32")):
    A_2d = A.view(8, 8)
    A_u32 = A.view("uint32")
    for i, j in T.grid(8, 8):
        A_2d[i, j] = T.reinterpret("float32", A_u32[i * 8 + j] + T.uint32(1))
