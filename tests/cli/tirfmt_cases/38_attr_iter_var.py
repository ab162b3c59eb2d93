from tvm.script import tir as T


# a thread extent written T.attr(T.iter_var(...), ...) over a var declared T.int32() stays so
# (not T.env_thread / T.launch_thread), with its T.Range
@T.prim_func
def kernel(A: T.Buffer([256], "float32")):
    threadIdx_x = T.int32()
    T.attr(T.iter_var(threadIdx_x, T.Range(0, 256), "ThreadIndex", "threadIdx.x"), "thread_extent", 256)
    A[threadIdx_x] = A[threadIdx_x] + T.float32(1)
# output
from tvm.script import tir as T


# a thread extent written T.attr(T.iter_var(...), ...) over a var declared T.int32() stays so
# (not T.env_thread / T.launch_thread), with its T.Range
@T.prim_func
def kernel(A: T.Buffer((256,), "float32")):
    threadIdx_x = T.int32()
    T.attr(
        T.iter_var(threadIdx_x, T.Range(0, 256), "ThreadIndex", "threadIdx.x"),
        "thread_extent",
        256
    )
    A[threadIdx_x] = A[threadIdx_x] + T.float32(1)
