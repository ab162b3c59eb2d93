# Block iter vars: every T.axis kind, explicit domains as ranges, remap strings, block names.
from tvm.script import tir as T


# spatial and reduce axes with (min, max) domains
@T.prim_func
def axis_ranges(A: T.Buffer((32, 32), "float32"), B: T.Buffer((16,), "float32")):
    for i, k in T.grid(16, 16):
        with T.block("sub_sum"):
            vi = T.axis.spatial((8, 24), i + 8)
            vk = T.axis.reduce((16, 32), k + 16)
            with T.init():
                B[vi - 8] = T.float32(0)
            B[vi - 8] = B[vi - 8] + A[vi, vk]


# scan axis for a cumulative sum
@T.prim_func
def cumsum(A: T.Buffer((64,), "float32"), B: T.Buffer((64,), "float32")):
    with T.block("init"):
        B[0] = A[0]
    for i in range(63):
        with T.block("scan"):
            vi = T.axis.scan(64, i + 1)
            B[vi] = B[vi - 1] + A[vi]


# opaque axis wrapping a loop of unknown access pattern
@T.prim_func
def opaque_axis(A: T.Buffer((16,), "int32"), B: T.Buffer((16,), "int32")):
    for i in range(16):
        with T.block("gather"):
            vi = T.axis.opaque(16, i)
            T.reads(A[0:16])
            T.writes(B[vi])
            B[vi] = A[A[vi] % 16]


# remap with all spatial, reduce and repeated kinds, and a block without a name
@T.prim_func
def remap_mixed(A: T.Buffer((4, 8, 16), "float32"), B: T.Buffer((4, 16), "float32")):
    for i, k, j in T.grid(4, 8, 16):
        with T.block():
            vi, vk, vj = T.axis.remap("SRS", [i, k, j])
            with T.init():
                B[vi, vj] = T.float32(0)
            B[vi, vj] = B[vi, vj] + A[vi, vk, vj]


# a block with no iter vars at all (opaque block) nested under another block
@T.prim_func
def nested_blocks(A: T.Buffer((8, 8), "float32")):
    for i in range(8):
        with T.block("outer"):
            vi = T.axis.spatial(8, i)
            T.reads()
            T.writes(A[vi, 0:8])
            for j in range(8):
                with T.block("inner"):
                    vj = T.axis.spatial(8, j)
                    A[vi, vj] = T.float32(0)
            with T.block("tail"):
                A[vi, 7] = T.float32(1)


# iter var binding with a constant and an int64 dtype override
@T.prim_func
def axis_constant_binding(A: T.Buffer((1, 16), "float32")):
    for j in range(16):
        with T.block("row0"):
            v0 = T.axis.spatial(1, 0)
            v1 = T.axis.spatial(16, j)
            A[v0, v1] = T.float32(2)
