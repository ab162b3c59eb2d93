# from tvm.script import tirx as T

@T.prim_func
def access_ptrs(A: T.Buffer((64,), "float32"), B: T.Buffer((64,), "float32")):
    T.call_extern("int32", "memcpy_f32", T.tvm_access_ptr(T.type_annotation("float32"), B.data, 0, 64, 2), T.tvm_access_ptr(T.type_annotation("float32"), A.data, 0, 64, 1), 64)
    T.call_extern("int32", "touch", T.address_of(A[8]))
