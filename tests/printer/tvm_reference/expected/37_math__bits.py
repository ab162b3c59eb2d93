# from tvm.script import tirx as T

@T.prim_func
def bits(A: T.Buffer((16,), "float32"), I_1: T.Buffer((16,), "int32"), M: T.Buffer((16,), "bool")):
    for i in range(16):
        M[i] = T.isnan(A[i]) or T.fabs(A[i]) == T.float32("inf") and not T.isnan(A[i]) or not (not (T.fabs(A[i]) == T.float32("inf") and not T.isnan(A[i])) and not T.isnan(A[i]))
        I_1[i] = T.clz(I_1[i]) + T.popcount(I_1[i]) + (I_1[i] << 2) + (I_1[i] >> 1) + (I_1[i] & 255) + (I_1[i] | 1) + (I_1[i] ^ 3) + ~I_1[i]
        I_1[i] = I_1[i] & 15 | I_1[i] ^ 7 | ~I_1[i] | I_1[i] << 1 | I_1[i] >> 1
