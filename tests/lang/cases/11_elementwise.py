# Elementwise kernels: add, relu, gelu (tanh form), sigmoid, casts, broadcast add, clip.
from tvm.script import tir as T


# C = A + B
@T.prim_func
def add(A: T.Buffer((1024,), "float32"), B: T.Buffer((1024,), "float32"), C: T.Buffer((1024,), "float32")):
    for i in range(1024):
        with T.block("C"):
            vi = T.axis.spatial(1024, i)
            C[vi] = A[vi] + B[vi]


# relu with T.max against a typed zero
@T.prim_func
def relu(A: T.Buffer((16, 16), "float32"), B: T.Buffer((16, 16), "float32")):
    for i, j in T.grid(16, 16):
        with T.block("relu"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = T.max(A[vi, vj], T.float32(0))


# gelu, tanh approximation
@T.prim_func
def gelu(A: T.Buffer((4096,), "float32"), B: T.Buffer((4096,), "float32")):
    for i in range(4096):
        with T.block("gelu"):
            vi = T.axis.spatial(4096, i)
            x = T.meta_var(A[vi])
            B[vi] = T.float32(0.5) * x * (
                T.float32(1) + T.tanh(T.float32(0.7978845608) * (x + T.float32(0.044715) * x * x * x))
            )


# sigmoid and silu in one block
@T.prim_func
def silu(A: T.Buffer((256,), "float32"), S: T.Buffer((256,), "float32"), B: T.Buffer((256,), "float32")):
    for i in range(256):
        with T.block("silu"):
            vi = T.axis.spatial(256, i)
            S[vi] = T.sigmoid(A[vi])
            B[vi] = A[vi] * S[vi]


# dtype conversions: float32 -> float16 -> int8 with rounding and clipping
@T.prim_func
def quantize(A: T.Buffer((64,), "float32"), H: T.Buffer((64,), "float16"), Q: T.Buffer((64,), "int8")):
    for i in range(64):
        with T.block("q"):
            vi = T.axis.spatial(64, i)
            H[vi] = T.Cast("float16", A[vi])
            Q[vi] = T.Cast("int8", T.max(T.min(T.round(A[vi] * T.float32(16)), T.float32(127)), T.float32(-128)))


# bias add broadcasting a 1-D bias over rows
@T.prim_func
def bias_add(A: T.Buffer((32, 64), "float32"), bias: T.Buffer((64,), "float32"), B: T.Buffer((32, 64), "float32")):
    for i, j in T.grid(32, 64):
        with T.block("bias_add"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] + bias[vj]
