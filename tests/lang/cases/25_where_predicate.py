# T.where predicates on blocks after imperfect splits.
from tvm.script import tir as T


# seed 003: split 16 into 7 x 10 with a predicate
@T.prim_func
def simple_split(a: T.handle) -> None:
    A = T.match_buffer(a, [16], dtype="float32")
    for i_0, i_1 in T.grid(7, 10):
        with T.block("block"):
            vi = T.axis.spatial(16, i_0 * 10 + i_1)
            T.where(i_0 * 10 + i_1 < 16)
            T.reads([])
            T.writes([A[vi]])
            A[vi] = T.Cast("float32", vi + 100)


# 2-D split with a compound predicate
@T.prim_func
def split_2d(A: T.Buffer((100, 50), "float32"), B: T.Buffer((100, 50), "float32")):
    for io, jo, ii, ji in T.grid(4, 2, 32, 32):
        with T.block("B"):
            vi = T.axis.spatial(100, io * 32 + ii)
            vj = T.axis.spatial(50, jo * 32 + ji)
            T.where(io * 32 + ii < 100 and jo * 32 + ji < 50)
            B[vi, vj] = A[vi, vj] + T.float32(1)


# predicate with T.likely on a reduction split
@T.prim_func
def split_reduce(A: T.Buffer((10, 30), "float32"), B: T.Buffer((10,), "float32")):
    for i, ko, ki in T.grid(10, 4, 8):
        with T.block("B"):
            vi = T.axis.spatial(10, i)
            vk = T.axis.reduce(30, ko * 8 + ki)
            T.where(T.likely(ko * 8 + ki < 30))
            with T.init():
                B[vi] = T.float32(0)
            B[vi] = B[vi] + A[vi, vk]
