# Seed 003's examples in well-formed classic TVMScript: the ir_builder programs as prim_funcs, the
# matmul, the printed split result (iter vars used instead of outer loop vars inside the block),
# and the tiling wish-list written with what TVMScript offers (T.meta_var, T.min, lets).
from tvm.script import ir as I
from tvm.script import tir as T


# the first ir_builder program: return a if True else b
@T.prim_func
def select_ret(a: T.float32, b: T.float32) -> T.float32:
    if True:
        return a
    return b


# the second ir_builder program, with truncmod
@T.prim_func
def ib_loop(A: T.Buffer((1024,), "float32"), n: T.int32):
    for i in range(n):
        if T.truncmod(i, 2) == 0:
            A[i] = A[i] + T.float32(1)
        else:
            A[0] = A[i] + T.float32(2)


# parallel / serial / vectorized with start and stop
@T.prim_func
def add(a: T.handle, b: T.handle):
    for i in T.parallel(0, 2):
        for j in T.serial(0, 1):
            for z in T.vectorized(3, 4):
                T.evaluate(0)


# the init / update matmul
@T.prim_func
def matmul(a: T.handle, b: T.handle, c: T.handle) -> None:
    A = T.match_buffer(a, [128, 128])
    B = T.match_buffer(b, [128, 128])
    C = T.match_buffer(c, [128, 128])
    for i, j in T.grid(128, 128):
        with T.block("init"):
            vi, vj = T.axis.remap("SS", [i, j])
            C[vi, vj] = T.float32(0)
        for k in range(128):
            with T.block("update"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vj, vk]


# the split example before and after, as a module
@I.ir_module
class Module:
    @T.prim_func
    def before(a: T.handle) -> None:
        A = T.match_buffer(a, [16])
        for i in T.serial(0, 16):
            with T.block("block"):
                vi = T.axis.remap("S", [i])
                A[vi] = T.Cast("float32", vi + 100)

    @T.prim_func
    def main(a: T.handle) -> None:
        A = T.match_buffer(a, [16], dtype="float32")
        for i_0, i_1 in T.grid(7, 10):
            with T.block("block"):
                vi = T.axis.spatial(16, i_0 * 10 + i_1)
                T.where(i_0 * 10 + i_1 < 16)
                T.reads([])
                T.writes([A[vi]])
                A[vi] = T.Cast("float32", vi + 100)


# the chunked loops of the wish-list: strides via index arithmetic, lengths via T.min lets
@T.prim_func
def chunked(A: T.Buffer((64,), "float32")):
    chunk_n = T.meta_var(3)
    chunk_c = T.meta_var(5)
    for n in T.serial(0, (16 + chunk_n - 1) // chunk_n):
        for c in T.serial(0, (32 + chunk_c - 1) // chunk_c):
            with T.block("block"):
                vi, vj = T.axis.remap("SS", [n, c])
                length_n: T.int32 = T.min(chunk_n, 16 - vi * chunk_n)
                length_c: T.int32 = T.min(chunk_c, 32 - vj * chunk_c)
                A[vi + vj] = T.Cast("float32", length_n * length_c)
