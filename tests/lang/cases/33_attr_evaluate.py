# T.attr (concise and with) and T.evaluate of calls and constants.
from tvm.script import tir as T


# pragma attrs on loops in with form, evaluate of a constant
@T.prim_func
def pragma_attrs(A: T.Buffer((64,), "float32")):
    for i in range(64):
        with T.attr(0, "pragma_import_c", "my_helpers.c"):
            A[i] = T.float32(1)
    T.evaluate(0)


# concise attr chain: each attr covers the rest of the body
@T.prim_func
def concise_attrs(A: T.Buffer((16,), "int32")):
    T.attr(0, "compute_scope", "concise_compute_")
    T.attr(A.data, "storage_alignment", 64)
    for i in range(16):
        A[i] = i
    T.evaluate(T.call_extern("int32", "flush", A.data))


# attrs on a buffer's data var and on a string node, after a concise launch_thread
@T.prim_func
def thread_extent_attr(A: T.Buffer((32,), "float32")):
    tx = T.launch_thread("threadIdx.x", 32)
    with T.attr(A.data, "volatile_scope", 1):
        A[tx] = T.float32(0)
    T.attr("default", "device_scope", 0)
    T.evaluate(T.tvm_storage_sync("global"))
