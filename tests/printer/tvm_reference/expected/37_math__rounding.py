# from tvm.script import tirx as T

@T.prim_func
def rounding(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
    for i in range(16):
        B[i] = T.floor(A[i]) + T.ceil(A[i]) + T.round(A[i]) + T.trunc(A[i]) + T.nearbyint(A[i]) + T.fabs(A[i]) + T.fabs(A[i]) + T.pow(A[i], T.float32(2.0)) + T.erf(A[i]) + T.sigmoid(A[i]) + T.fmod(A[i], T.float32(3.0)) + T.hypot(A[i], T.float32(4.0)) + T.copysign(A[i], T.float32(-1.0)) + T.ldexp(A[i], 2) + T.nextafter(A[i], T.float32(0.0))
