from tvm.script import tir as T


# a loop var named as an outer var keeps its name (its body does not refer to the outer one;
# after the loop, k is the outer var again), and a region's element written as a slice stays
# a slice
@T.prim_func
def matmul(x: T.handle, y: T.handle, z: T.handle) -> None:
    m = T.int32()
    n = T.int32()
    k = T.int32()
    A = T.match_buffer(x, (m, n))
    B = T.match_buffer(y, (n, k))
    C = T.match_buffer(z, (m, k))
    for i, j, k in T.grid(m, k, n):
        with T.block("matmul"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            T.reads(A[vi, vk : vk + 1], B[vk:vk+1, vj])
            T.writes(C[vi, vj])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
    for i in range(m):
        for k in range(4):
            C[i, k] = C[i, k]+T.float32(1)
        C[i, 0] = C[i, k - 1]


# the block's reads refer to the outer i (the whole buffer: the parser derived the region from
# its shape), so the loop var would be renamed i_1: that loses the user's name, the unit stays
# as it is
@T.prim_func
def outer_used(a: T.handle, B: T.Buffer((4,), "int32")):
    i = T.int32()
    A = T.match_buffer(a, (i,), "int32")
    for i in range(4):
        with T.block("b"):
            for j in range(4):
                B[j] = A[B[j]]
# output
from tvm.script import tir as T


# a loop var named as an outer var keeps its name (its body does not refer to the outer one;
# after the loop, k is the outer var again), and a region's element written as a slice stays
# a slice
@T.prim_func
def matmul(x: T.handle, y: T.handle, z: T.handle) -> None:
    m = T.int32()
    n = T.int32()
    A = T.match_buffer(x, (m, n))
    k = T.int32()
    B = T.match_buffer(y, (n, k))
    C = T.match_buffer(z, (m, k))
    for i, j, k in T.grid(m, k, n):
        with T.block("matmul"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            T.reads(A[vi, vk:vk + 1], B[vk:vk + 1, vj])
            T.writes(C[vi, vj])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
    for i in range(m):
        for k in range(4):
            C[i, k] = C[i, k] + T.float32(1)
        C[i, 0] = C[i, k - 1]


# the block's reads refer to the outer i (the whole buffer: the parser derived the region from
# its shape), so the loop var would be renamed i_1: that loses the user's name, the unit stays
# as it is
@T.prim_func
def outer_used(a: T.handle, B: T.Buffer((4,), "int32")):
    i = T.int32()
    A = T.match_buffer(a, (i,), "int32")
    for i in range(4):
        with T.block("b"):
            for j in range(4):
                B[j] = A[B[j]]
