# Vector expressions: T.Ramp, T.Broadcast, T.Shuffle, vectorized stores and lane-wise ops.
from tvm.script import tir as T


# ramp-indexed load/store with broadcast arithmetic
@T.prim_func
def ramp_broadcast(A: T.Buffer((64,), "float32"), B: T.Buffer((64,), "float32")):
    for i in range(16):
        B[T.Ramp(i * 4, 1, 4)] = A[T.Ramp(i * 4, 1, 4)] * T.Broadcast(T.float32(2), 4) + T.Broadcast(T.float32(1), 4)


# shuffle concatenating two 4-lane vectors into 8 lanes, and reversing
@T.prim_func
def shuffles(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
    lo = T.meta_var(A[T.Ramp(0, 1, 4)])
    hi = T.meta_var(A[T.Ramp(4, 1, 4)])
    B[T.Ramp(0, 1, 8)] = T.Shuffle([lo, hi], [7, 6, 5, 4, 3, 2, 1, 0])


# vector-typed buffer elements with lane-wise select and max
@T.prim_func
def lanes(A: T.Buffer((16,), "float32x4"), B: T.Buffer((16,), "float32x4")):
    for i in range(16):
        B[i] = T.Select(A[i] > T.Broadcast(T.float32(0), 4), A[i], T.Broadcast(T.float32(0), 4))
        B[i] = T.max(B[i], T.Broadcast(T.float32(-1), 4))


# strided ramp gather into a vector and lower-case ramp/broadcast helpers
@T.prim_func
def gather(A: T.Buffer((32,), "int32"), B: T.Buffer((8,), "int32")):
    B[T.ramp(0, 1, 8)] = A[T.Ramp(1, 4, 8)] + T.broadcast(1, 8)


# vectorized loop over an unrolled outer loop with a vector accumulator
@T.prim_func
def vec_accum(A: T.Buffer((4, 8), "float32"), B: T.Buffer((8,), "float32")):
    for j in T.vectorized(8):
        B[j] = T.float32(0)
    for i in T.unroll(4):
        for j in T.vectorized(8):
            B[j] = B[j] + A[i, j]
