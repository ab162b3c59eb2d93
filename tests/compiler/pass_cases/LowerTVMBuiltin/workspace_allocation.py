# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((4096,), "float32"), n: T.int32, dev_id: T.int32):
    T.func_attr({"global_symbol": "main"})
    T.attr("default", "device_id", dev_id)
    T.attr("default", "device_type", 1)
    big = T.allocate([1024], "float32", "global")
    big_1 = T.decl_buffer((1024,), data=big)
    dyn = T.allocate([n], "float32", "global")
    dyn_1 = T.decl_buffer((n,), data=dyn)
    small = T.allocate([16], "float32", "global")
    small_1 = T.decl_buffer((16,), data=small)
    for i in range(16):
        small_1[i] = A[i]
        big_1[i] = small_1[i]
        dyn_1[i] = big_1[i]
        A[i] = dyn_1[i]

# output
# from tvm.script import ir as I
# from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((4096,), "float32"), n: T.int32, dev_id: T.int32):
        big: T.handle("float32", "global") = T.TVMBackendAllocWorkspace(1, dev_id, T.uint64(4096), 2, 32)
        T.attr(big, "storage_alignment", 64)
        if T.isnullptr(big):
            T.tvm_throw_last_error()
        with T.decl_buffer((1024,), data=big) as big_1:
            dyn: T.handle("float32", "global") = T.TVMBackendAllocWorkspace(1, dev_id, T.Cast("uint64", 4 * n), 2, 32)
            T.attr(dyn, "storage_alignment", 64)
            if T.isnullptr(dyn):
                T.tvm_throw_last_error()
            with T.decl_buffer((n,), data=dyn) as dyn_1:
                small_1 = T.decl_buffer((16,))
                for i in range(16):
                    small_1[i] = A[i]
                    big_1[i] = small_1[i]
                    dyn_1[i] = big_1[i]
                    A[i] = dyn_1[i]
            if T.TVMBackendFreeWorkspace(1, dev_id, dyn) != 0:
                T.tvm_throw_last_error()
        if T.TVMBackendFreeWorkspace(1, dev_id, big) != 0:
            T.tvm_throw_last_error()
