# Typed pointers: T.handle(dtype, scope) params and lets, buffers over raw pointers, T.Ptr-free spelling.
from tvm.script import tir as T


# typed pointer params viewed as buffers
@T.prim_func
def ptr_params(a: T.handle("float32", "global"), b: T.handle("float32"), n: T.int32):
    A = T.decl_buffer((n,), "float32", data=a)
    B = T.decl_buffer((n,), "float32", data=b)
    for i in range(n):
        B[i] = A[i] + T.float32(1)


# shared-scope pointer and an untyped void handle param
@T.prim_func
def ptr_scopes(p: T.handle("int32", "shared"), ctx: T.handle):
    P = T.Buffer((32,), "int32", data=p, scope="shared")
    for i in range(32):
        P[i] = 0
    T.evaluate(T.call_extern("int32", "release", ctx))


# T.Buffer param over data taken from another param (aliasing view), strides on the view
@T.prim_func
def handle_view(A: T.Buffer((16, 16), "float32")):
    A_T = T.Buffer((16, 16), "float32", data=A.data, strides=(1, 16))
    for i, j in T.grid(16, 16):
        A_T[i, j] = A[i, j]


# a pointer let of an int8 array and byte-level access
@T.prim_func
def byte_view(A: T.Buffer((4,), "int32")):
    raw: T.handle("int8") = T.reinterpret("handle", A.data)
    bytes_ = T.decl_buffer((16,), "int8", data=raw)
    bytes_[0] = T.int8(0)
