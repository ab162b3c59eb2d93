# Low-level builtins: tvm_struct_get/set, tvm_access_ptr, address_of, reinterpret, likely, isnullptr, max/min_value.
from tvm.script import tir as T


# DLTensor field access on a raw handle
@T.prim_func
def struct_access(arg: T.handle, out: T.Buffer((3,), "int64")):
    ndim: T.int32 = T.tvm_struct_get(arg, 0, 4, "int32")
    data: T.handle = T.tvm_struct_get(arg, 0, 1, "handle")
    out[0] = T.Cast("int64", ndim)
    out[1] = T.Cast("int64", T.isnullptr(data))
    out[2] = T.Cast("int64", T.tvm_struct_get(arg, 0, 8, "uint64"))
    T.tvm_struct_set(arg, 0, 10, 1)


# access pointers with a type annotation, address_of a buffer element
@T.prim_func
def access_ptrs(A: T.Buffer((64,), "float32"), B: T.Buffer((64,), "float32")):
    T.evaluate(
        T.call_extern(
            "int32",
            "memcpy_f32",
            T.tvm_access_ptr(T.type_annotation("float32"), B.data, 0, 64, 2),
            T.tvm_access_ptr(T.type_annotation("float32"), A.data, 0, 64, 1),
            64,
        )
    )
    T.evaluate(T.call_extern("int32", "touch", T.address_of(A[8])))


# reinterpret between float and int bits, likely hint in a branch
@T.prim_func
def bit_tricks(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "int32"), n: T.int32):
    for i in range(16):
        if T.likely(i < n):
            B[i] = T.reinterpret("int32", A[i])
            A[i] = T.reinterpret("float32", B[i] & 2147483647)


# extreme values of several dtypes and infinity
@T.prim_func
def limits(F: T.Buffer((4,), "float32"), I: T.Buffer((4,), "int32"), H: T.Buffer((2,), "float16")):
    F[0] = T.max_value("float32")
    F[1] = T.min_value("float32")
    F[2] = T.infinity("float32")
    F[3] = -T.infinity("float32")
    I[0] = T.max_value("int32")
    I[1] = T.min_value("int32")
    I[2] = T.Cast("int32", T.max_value("int8"))
    I[3] = T.Cast("int32", T.min_value("uint8"))
    H[0] = T.max_value("float16")
    H[1] = T.min_value("float16")


# assume and undef hints, and the workspace alloc/free pair of lowered host code
@T.prim_func
def hints_workspace(A: T.Buffer((16,), "float32"), n: T.int32):
    T.evaluate(T.assume(n <= 16))
    ws: T.handle("float32") = T.TVMBackendAllocWorkspace(1, 0, T.uint64(64), 2, 32)
    if T.isnullptr(ws):
        T.evaluate(T.tvm_throw_last_error())
    W = T.decl_buffer((16,), "float32", data=ws)
    for i in range(n):
        W[i] = A[i]
    if T.TVMBackendFreeWorkspace(1, 0, ws) != 0:
        T.evaluate(T.tvm_throw_last_error())
