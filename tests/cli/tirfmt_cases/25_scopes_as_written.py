from tvm.script import tir as T


@T.prim_func
def launch(A: T.Buffer((64,), "float32")):
    tx = T.env_thread("threadIdx.x")
    # the last statement of its frame, written as a `with` scope: it stays one
    with T.launch_thread(tx, 64):
        A[tx] = A[tx]*T.float32(2)


@T.prim_func
def nothing():
    pass
# output
from tvm.script import tir as T


@T.prim_func
def launch(A: T.Buffer((64,), "float32")):
    tx = T.env_thread("threadIdx.x")
    # the last statement of its frame, written as a `with` scope: it stays one
    with T.launch_thread(tx, 64):
        A[tx] = A[tx] * T.float32(2)


@T.prim_func
def nothing():
    pass
