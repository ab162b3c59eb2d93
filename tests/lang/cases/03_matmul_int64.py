# int64 index forms: T.int64 shapes, int64 loops and iter vars.
from tvm.script import tir as T


# shapes and loops in int64 (Relax-generated style)
@T.prim_func
def matmul_i64(
    A: T.Buffer((T.int64(128), T.int64(64)), "float32"),
    B: T.Buffer((T.int64(64), T.int64(32)), "float32"),
    C: T.Buffer((T.int64(128), T.int64(32)), "float32"),
):
    T.func_attr({"tir.noalias": True})
    for i, j, k in T.grid(T.int64(128), T.int64(32), T.int64(64)):
        with T.block("matmul"):
            v_i, v_j, v_k = T.axis.remap("SSR", [i, j, k])
            T.reads(A[v_i, v_k], B[v_k, v_j])
            T.writes(C[v_i, v_j])
            with T.init():
                C[v_i, v_j] = T.float32(0)
            C[v_i, v_j] = C[v_i, v_j] + A[v_i, v_k] * B[v_k, v_j]


# int64 loops written with range and T.serial, int64 arithmetic in indices
@T.prim_func
def add_i64(A: T.Buffer((T.int64(16), T.int64(16)), "float32"), B: T.Buffer((T.int64(256),), "float32")):
    for i in range(T.int64(16)):
        for j in T.serial(T.int64(0), T.int64(16)):
            with T.block("flatten"):
                vi = T.axis.spatial(T.int64(16), i)
                vj = T.axis.spatial(T.int64(16), j)
                B[vi * T.int64(16) + vj] = A[vi, vj] + T.float32(1)


# symbolic int64 extent from a parameter
@T.prim_func
def scale_i64(a: T.handle, b: T.handle, n: T.int64):
    A = T.match_buffer(a, (n,), "float32")
    B = T.match_buffer(b, (n,), "float32")
    for i in T.serial(n):
        with T.block("scale"):
            vi = T.axis.spatial(n, i)
            B[vi] = A[vi] * T.float32(0.5)


# int64 iter var dtype given explicitly on T.axis.spatial
@T.prim_func
def copy_i64_dtype(A: T.Buffer((T.int64(8),), "int32"), B: T.Buffer((T.int64(8),), "int32")):
    for i in range(T.int64(8)):
        with T.block("copy"):
            vi = T.axis.spatial(T.int64(8), i, dtype="int64")
            B[vi] = A[vi]
