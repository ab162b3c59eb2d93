# thread_binding without a thread tag, and launch_thread with an unknown tag.
from tvm.script import tir as T


# no thread= argument
@T.prim_func
def no_thread(A: T.Buffer((32,), "float32")):
    for tx in T.thread_binding(32):  # error: thread_binding needs a thread tag
#             ^^^^^^^^^^^^^^^^^^^^
        A[tx] = T.float32(0)


# a thread tag that is not one of TVM's
@T.prim_func
def bad_tag(A: T.Buffer((32,), "float32")):
    tx = T.launch_thread("threadIdx.w", 32)  # error: unknown thread tag 'threadIdx.w'
#                        ^^^^^^^^^^^^^
    A[tx] = T.float32(0)
