# from tvm.script import tirx as T

@T.prim_func
def let_assign(A: T.Buffer((16,), "float32"), n: T.int32):
    half: T.int32 = n // 2
    scale: T.float32 = T.float32(0.5)
    idx: T.int32 = half + 1
    A[idx] = A[idx] * scale
