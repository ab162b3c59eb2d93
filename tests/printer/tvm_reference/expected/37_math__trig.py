# from tvm.script import tirx as T

@T.prim_func
def trig(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
    for i in range(16):
        B[i] = T.sin(A[i]) + T.cos(A[i]) + T.tan(A[i]) + T.asin(A[i]) + T.acos(A[i]) + T.atan(A[i]) + T.atan2(A[i], T.float32(1.0)) + T.sinh(A[i]) + T.cosh(A[i]) + T.tanh(A[i]) + T.asinh(A[i]) + T.acosh(A[i]) + T.atanh(A[i])
