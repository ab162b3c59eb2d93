# Buffer slices: region reads/writes with slices, vector loads/stores written as slices, strided slices.
from tvm.script import tir as T


# regions written with full-dimension slices and a mixed slice/point index
@T.prim_func
def region_slices(A: T.Buffer((16, 16), "float32"), B: T.Buffer((16,), "float32")):
    for i in range(16):
        with T.block("row_sum"):
            vi = T.axis.spatial(16, i)
            T.reads(A[vi, 0:16])
            T.writes(B[vi : vi + 1])
            B[vi] = T.float32(0)
            for k in range(16):
                B[vi] = B[vi] + A[vi, k]


# a slice of symbolic length A[0:n, i] in a region
@T.prim_func
def slice_symbolic(a: T.handle, b: T.handle):
    n = T.int32()
    A = T.match_buffer(a, (n, 4))
    B = T.match_buffer(b, (4,))
    for i in range(4):
        with T.block("col"):
            vi = T.axis.spatial(4, i)
            T.reads(A[0:n, vi])
            T.writes(B[vi])
            B[vi] = T.float32(0)
            for k in range(n):
                B[vi] = B[vi] + A[k, vi]


# vector store through a slice: B[i*4 : i*4+4] is a 4-lane store of a Ramp-indexed load
@T.prim_func
def vector_slices(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
    for i in range(4):
        B[i * 4 : i * 4 + 4] = A[T.Ramp(i * 4, 1, 4)] + T.Broadcast(T.float32(1), 4)


# a store slice with an explicit step (every other element, 4 lanes)
@T.prim_func
def strided_vector(A: T.Buffer((4,), "float32"), B: T.Buffer((8,), "float32")):
    B[0:8:2] = A[T.Ramp(0, 1, 4)]
