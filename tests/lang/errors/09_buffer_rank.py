# Buffer rank mismatches in loads and stores, naming the buffer and both ranks.
from tvm.script import tir as T


# a 2-D buffer loaded with one index
@T.prim_func
def load_rank(A: T.Buffer((16, 16), "float32"), B: T.Buffer((16,), "float32")):
    for i in range(16):
        B[i] = A[i]  # error: buffer 'A' has 2 dimension(s) but 1 index(es)
#              ^^^^


# a 2-D buffer stored with three indices
@T.prim_func
def store_rank(A: T.Buffer((4, 4), "float32")):
    for i, j in T.grid(4, 4):
        A[i, j, 0] = T.float32(0)  # error: buffer 'A' has 2 dimension(s) but 3 index(es)
#       ^^^^^^^^^^


# rank mismatch on a match_buffer'd buffer inside a block
@T.prim_func
def block_rank(a: T.handle):
    A = T.match_buffer(a, (8, 8, 8))
    for i in range(8):
        with T.block("A"):
            vi = T.axis.spatial(8, i)
            A[vi, vi] = T.float32(1)  # error: buffer 'A' has 3 dimension(s) but 2 index(es)
#           ^^^^^^^^^
