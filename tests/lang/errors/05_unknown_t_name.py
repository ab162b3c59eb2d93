# Unknown names in the T namespace, each with the nearest valid name as a note.
from tvm.script import tir as T


# misspelled loop kind and dtype constructor in one unit
@T.prim_func
def typos_loop(A: T.Buffer((4, 4), "float32")):
    for i in T.vectorise(4):  # error: did you mean `T.vectorized`
#            ^^^^^^^^^^^
        A[i, 0] = T.flaot32(0)  # error: did you mean `T.float32`
#                 ^^^^^^^^^


# misspelled thread_binding and alloc_buffer
@T.prim_func
def typos_gpu(A: T.Buffer((64,), "float32")):
    S = T.alloc_buf((64,), scope="shared")  # error: did you mean `T.alloc_buffer`
#       ^^^^^^^^^^^
    for tx in T.thread_bind(64, thread="threadIdx.x"):  # error: did you mean `T.thread_binding`
#             ^^^^^^^^^^^^^
        S[tx] = A[tx]


# misspelled axis kind and math intrinsic
@T.prim_func
def typos_axis(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
    for i in range(8):
        with T.block("B"):
            vi = T.axis.spacial(8, i)  # error: did you mean `T.axis.spatial`
#                ^^^^^^^^^^^^^^
            B[vi] = T.expp(A[vi])  # error: did you mean `T.exp`
#                   ^^^^^^
