# Matmul variants: Buffer params, inferred vs explicit reads/writes, match_buffer handles.
from tvm.script import tir as T


# matmul with T.Buffer parameters; reads/writes left to be inferred
@T.prim_func
def matmul_inferred(
    A: T.Buffer((128, 128), "float32"),
    B: T.Buffer((128, 128), "float32"),
    C: T.Buffer((128, 128), "float32"),
):
    T.func_attr({"global_symbol": "matmul_inferred", "tir.noalias": True})
    for i, j, k in T.grid(128, 128, 128):
        with T.block("C"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]


# matmul with explicit T.reads / T.writes regions
@T.prim_func
def matmul_explicit(
    A: T.Buffer((128, 128), "float32"),
    B: T.Buffer((128, 128), "float32"),
    C: T.Buffer((128, 128), "float32"),
):
    T.func_attr({"global_symbol": "matmul_explicit", "tir.noalias": True})
    # with T.block("root"):
    for i, j, k in T.grid(128, 128, 128):
        with T.block("C"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            T.reads(A[vi, vk], B[vk, vj])
            T.writes(C[vi, vj])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]


# matmul through handles and T.match_buffer, B transposed, list-form reads/writes
@T.prim_func
def matmul_handles(a: T.handle, b: T.handle, c: T.handle) -> None:
    A = T.match_buffer(a, [128, 128])
    B = T.match_buffer(b, [128, 128])
    C = T.match_buffer(c, [128, 128])
    for i, j in T.grid(128, 128):
        with T.block("init"):
            vi, vj = T.axis.remap("SS", [i, j])
            T.reads([])
            T.writes([C[vi, vj]])
            C[vi, vj] = T.float32(0)
        for k in range(128):
            with T.block("update"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                T.reads([C[vi, vj], A[vi, vk], B[vj, vk]])
                T.writes([C[vi, vj]])
                C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vj, vk]


# matmul with float16 inputs accumulated in float32, non-square shapes
@T.prim_func
def matmul_mixed_precision(
    A: T.Buffer((64, 256), "float16"),
    B: T.Buffer((256, 32), "float16"),
    C: T.Buffer((64, 32), "float32"),
):
    for i, j, k in T.grid(64, 32, 256):
        with T.block("C"):
            vi = T.axis.spatial(64, i)
            vj = T.axis.spatial(32, j)
            vk = T.axis.reduce(256, k)
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + T.Cast("float32", A[vi, vk]) * T.Cast("float32", B[vk, vj])
