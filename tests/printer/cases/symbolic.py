@T.prim_func
def dyn(a: T.handle, b: T.handle):
    T.func_attr({"global_symbol": "dyn", "tir.noalias": True})
    n = T.int32()
    m = T.int32()
    A = T.match_buffer(a, (n, m))
    B = T.match_buffer(b, (n, m))
    for i, j in T.grid(n, m):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] + T.float32(1)
# output
# from tvm.script import tir as T

@T.prim_func
def dyn(a: T.handle, b: T.handle):
    T.func_attr({"tir.noalias": True})
    n, m = T.int32(), T.int32()
    A = T.match_buffer(a, (n, m))
    B = T.match_buffer(b, (n, m))
    # with T.block("root"):
    for i, j in T.grid(n, m):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            T.reads(A[vi, vj])
            T.writes(B[vi, vj])
            B[vi, vj] = A[vi, vj] + T.float32(1.0)
