from tvm.script import tir as T


@T.prim_func
def concise(A: T.Buffer((128,), "float32")):
    T.func_attr({"global_symbol": "concise"})
    tx = T.env_thread("threadIdx.x")
    T.launch_thread(tx, 128)
    buf = T.allocate([128], "float32", "local")
    buf_1 = T.Buffer((128,), data=buf, scope="local")
    buf_1[tx] = A[tx]
    A[tx] = buf_1[tx] * T.float32(2)
# output
from tvm.script import tir as T


@T.prim_func
def concise(A: T.Buffer((128,), "float32")):
    T.func_attr({"global_symbol": "concise"})
    tx = T.env_thread("threadIdx.x")
    T.launch_thread(tx, 128)
    buf = T.allocate([128], "float32", "local")
    buf_1 = T.Buffer((128,), data=buf, scope="local")
    buf_1[tx] = A[tx]
    A[tx] = buf_1[tx] * T.float32(2)
