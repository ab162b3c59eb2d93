# Loop forms: range(n), range(a, b), T.serial/parallel/vectorized/unroll with start/stop, annotations, T.grid.
from tvm.script import tir as T


# range with one and two arguments
@T.prim_func
def range_forms(A: T.Buffer((64,), "int32")):
    for i in range(16):
        A[i] = i
    for i in range(16, 48):
        A[i] = i * 2
    for i in range(48, 64):
        A[i] = 0


# every ForKind spelling with explicit start and stop
@T.prim_func
def loop_kinds(A: T.Buffer((8, 8, 8, 8), "float32")):
    for i in T.serial(0, 8):
        for j in T.parallel(0, 8):
            for k in T.unroll(0, 8):
                for l in T.vectorized(0, 8):
                    A[i, j, k, l] = T.float32(1)


# extent-only spellings of the loop kinds
@T.prim_func
def loop_kinds_extent(A: T.Buffer((4, 4, 4), "float32")):
    for i in T.serial(4):
        for j in T.parallel(4):
            for k in T.vectorized(4):
                A[i, j, k] = T.float32(0)
    for i in T.unroll(4):
        A[i, 0, 0] = T.float32(1)


# loop annotations on serial, parallel and unroll loops
@T.prim_func
def loop_annotations(A: T.Buffer((128,), "float32")):
    for i in T.serial(0, 128, annotations={"pragma_auto_unroll_max_step": 16, "pragma_unroll_explicit": 1}):
        A[i] = T.float32(0)
    for i in T.parallel(128, annotations={"software_pipeline_stage": [0, 1], "software_pipeline_order": [0, 1]}):
        A[i] = A[i] + T.float32(1)
    for i in T.unroll(4, annotations={"pragma_key": "value"}):
        A[i] = A[i] * T.float32(2)


# T.grid of mixed constant and symbolic extents, non-zero starting range inside
@T.prim_func
def grid_symbolic(a: T.handle, n: T.int32):
    A = T.match_buffer(a, (n, 4, 8))
    for i, j, k in T.grid(n, 4, 8):
        A[i, j, k] = T.Cast("float32", i + j + k)
    for i in range(1, n):
        for j, k in T.grid(4, 8):
            A[i, j, k] = A[i, j, k] + A[i - 1, j, k]


# a loop whose extent is an expression of an outer loop var (triangular)
@T.prim_func
def triangular(A: T.Buffer((32, 32), "float32")):
    for i in range(32):
        for j in range(i + 1):
            A[i, j] = T.float32(1)
        for j in range(i + 1, 32):
            A[i, j] = T.float32(0)
