# from tvm.script import tirx as T

@T.prim_func
def exp_log(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
    for i in range(16):
        B[i] = T.exp(A[i]) + T.exp2(A[i]) + T.exp10(A[i]) + T.log(A[i]) + T.log2(A[i]) + T.log10(A[i]) + T.log1p(A[i]) + T.sqrt(A[i]) + T.rsqrt(A[i])
