# from tvm.script import tirx as T

@T.prim_func
def sort_step(A: T.Buffer((64,), "float32"), phase: T.int32):
    for p in T.parallel(31):
        if p * 2 + phase + 1 < 64:
            a: T.float32 = A[p * 2 + phase]
            b: T.float32 = A[p * 2 + phase + 1]
            A[p * 2 + phase] = T.min(a, b)
            A[p * 2 + phase + 1] = T.max(a, b)
