# Math intrinsics of the T namespace (TVM v0.20 names).
from tvm.script import tir as T


# exponentials, logarithms and roots
@T.prim_func
def exp_log(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
    for i in range(16):
        B[i] = (
            T.exp(A[i]) + T.exp2(A[i]) + T.exp10(A[i])
            + T.log(A[i]) + T.log2(A[i]) + T.log10(A[i]) + T.log1p(A[i])
            + T.sqrt(A[i]) + T.rsqrt(A[i])
        )


# trigonometric and hyperbolic functions
@T.prim_func
def trig(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
    for i in range(16):
        B[i] = (
            T.sin(A[i]) + T.cos(A[i]) + T.tan(A[i])
            + T.asin(A[i]) + T.acos(A[i]) + T.atan(A[i]) + T.atan2(A[i], T.float32(1))
            + T.sinh(A[i]) + T.cosh(A[i]) + T.tanh(A[i])
            + T.asinh(A[i]) + T.acosh(A[i]) + T.atanh(A[i])
        )


# rounding, abs, fabs, pow, erf, sigmoid and friends
@T.prim_func
def rounding(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
    for i in range(16):
        B[i] = (
            T.floor(A[i]) + T.ceil(A[i]) + T.round(A[i]) + T.trunc(A[i]) + T.nearbyint(A[i])
            + T.abs(A[i]) + T.fabs(A[i]) + T.pow(A[i], T.float32(2)) + T.erf(A[i]) + T.sigmoid(A[i])
            + T.fmod(A[i], T.float32(3)) + T.hypot(A[i], T.float32(4)) + T.copysign(A[i], T.float32(-1))
            + T.ldexp(A[i], 2) + T.nextafter(A[i], T.float32(0))
        )


# classification predicates and integer bit ops
@T.prim_func
def bits(A: T.Buffer((16,), "float32"), I: T.Buffer((16,), "int32"), M: T.Buffer((16,), "bool")):
    for i in range(16):
        M[i] = T.isnan(A[i]) or T.isinf(A[i]) or not T.isfinite(A[i])
        I[i] = (
            T.clz(I[i]) + T.popcount(I[i]) + T.shift_left(I[i], 2) + T.shift_right(I[i], 1)
            + T.bitwise_and(I[i], 255) + T.bitwise_or(I[i], 1) + T.bitwise_xor(I[i], 3) + T.bitwise_not(I[i])
        )
        I[i] = (I[i] & 15) | (I[i] ^ 7) | (~I[i]) | (I[i] << 1) | (I[i] >> 1)


# fixed-point multiply and ceildiv on integers
@T.prim_func
def fixed_point(A: T.Buffer((8,), "int32"), B: T.Buffer((8,), "int32")):
    for i in range(8):
        B[i] = T.q_multiply_shift(A[i], 1073741824, 31, 2) + T.ceildiv(A[i], 4)
