# TVM 0.27 "tirx" spelling: tirx import, @T.prim_func(s_tir=True), T.sblock, T.sblock_attr, break/continue, a if c else b.
from tvm.script import ir as I
from tvm.script import tirx as T


# matmul with T.sblock
@T.prim_func(s_tir=True)
def matmul_sblock(A: T.Buffer((128, 128), "float32"), B: T.Buffer((128, 128), "float32"), C: T.Buffer((128, 128), "float32")):
    T.func_attr({"tir.noalias": True})
    for i, j, k in T.grid(128, 128, 128):
        with T.sblock("C"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            T.reads(A[vi, vk], B[vk, vj])
            T.writes(C[vi, vj])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]


# sblock annotations
@T.prim_func(s_tir=True)
def sblock_annotated(A: T.Buffer((64,), "float32")):
    for i in range(64):
        with T.sblock("A"):
            vi = T.axis.spatial(64, i)
            T.sblock_attr({"meta_schedule.unroll_explicit": 16})
            A[vi] = T.float32(1)


# conditional expression a if c else b
@T.prim_func(s_tir=True)
def cond_expr(A: T.Buffer((32,), "float32"), B: T.Buffer((32,), "float32")):
    for i in range(32):
        with T.sblock("B"):
            vi = T.axis.spatial(32, i)
            B[vi] = A[vi] if vi < 16 else T.float32(0)


# break out of a serial loop (no blocks needed, plain prim_func)
@T.prim_func
def find_first(A: T.Buffer((64,), "int32"), out: T.Buffer((1,), "int32")):
    out[0] = -1
    for i in range(64):
        if A[i] == 0:
            out[0] = i
            break


# continue skipping odd elements
@T.prim_func
def even_only(A: T.Buffer((64,), "float32")):
    for i in range(64):
        if i % 2 == 1:
            continue
        A[i] = T.float32(0)


# break inside a while loop
@T.prim_func
def while_break(A: T.Buffer((1,), "int32"), n: T.int32):
    i = T.alloc_buffer((1,), "int32", scope="local")
    i[0] = 0
    while i[0] < n:
        if A[0] > 100:
            break
        A[0] = A[0] + i[0]
        i[0] = i[0] + 1


# nested conditional expressions
@T.prim_func
def sign(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
    for i in range(16):
        B[i] = T.float32(1) if A[i] > T.float32(0) else (T.float32(-1) if A[i] < T.float32(0) else T.float32(0))


# reduction with T.sblock and an alloc_buffer in the root
@T.prim_func(s_tir=True)
def softmax_sblock(A: T.Buffer((8, 64), "float32"), B: T.Buffer((8, 64), "float32")):
    mx = T.alloc_buffer((8,))
    for i, k in T.grid(8, 64):
        with T.sblock("mx"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                mx[vi] = T.min_value("float32")
            mx[vi] = T.max(mx[vi], A[vi, vk])
    for i, j in T.grid(8, 64):
        with T.sblock("out"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = T.exp(A[vi, vj] - mx[vi])


# an IR module in the tirx spelling
@I.ir_module
class TirxModule:
    @T.prim_func(s_tir=True)
    def main(A: T.Buffer((16,), "float32")):
        for i in range(16):
            with T.sblock("A"):
                vi = T.axis.spatial(16, i)
                A[vi] = T.float32(0)

    @T.prim_func(private=True)
    def helper(A: T.Buffer((16,), "float32")):
        for i in range(16):
            if i > 7:
                break
            A[i] = T.float32(1)


# where predicate and T.sblock under a split
@T.prim_func(s_tir=True)
def split_sblock(A: T.Buffer((10,), "float32")):
    for io, ii in T.grid(3, 4):
        with T.sblock("A"):
            vi = T.axis.spatial(10, io * 4 + ii)
            T.where(io * 4 + ii < 10)
            A[vi] = T.float32(2) if vi % 2 == 0 else T.float32(3)


# a let whose value is not a PrimType value (a handle) is annotated T.let[...]; a handle-valued
# call takes the var's type T.handle().ty as its dtype (TVM 0.27's spellings; both type-check)
@T.prim_func
def let_subscript(A: T.Buffer((4,), "float32"), n: T.int32):
    p: T.let[T.handle] = T.call_extern(T.handle().ty, "make_handle", n)
    m: T.let[T.int32] = n + 1
    A[0] = T.call_extern("float32", "use_handle", p, m)
