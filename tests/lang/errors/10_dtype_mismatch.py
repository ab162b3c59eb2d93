# dtype mismatches that cannot be cast implicitly.
from tvm.script import tir as T


# storing a 4-lane vector at a scalar index of a float32 buffer
@T.prim_func
def lanes_store(A: T.Buffer((16,), "float32")):
    A[0] = T.Broadcast(T.float32(1), 4)  # error: 4 lanes
#          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^


# storing a pointer into a float buffer
@T.prim_func
def handle_store(A: T.Buffer((16,), "float32")):
    A[0] = A.data  # error: dtype handle
#          ^^^^^^


# a float used as a buffer index
@T.prim_func
def float_index(A: T.Buffer((16,), "float32")):
    A[T.float32(1.5)] = T.float32(0)  # error: index must be an integer
#     ^^^^^^^^^^^^^^
