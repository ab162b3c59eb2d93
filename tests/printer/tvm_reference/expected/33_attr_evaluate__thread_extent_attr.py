# from tvm.script import tirx as T

@T.prim_func
def thread_extent_attr(A: T.Buffer((32,), "float32")):
    tx = T.launch_thread("threadIdx.x", 32)
    with T.attr(A.data, "volatile_scope", 1):
        A[tx] = T.float32(0.0)
    with T.attr("default", "device_scope", 0):
        T.tvm_storage_sync("global")
