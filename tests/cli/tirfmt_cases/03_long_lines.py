# flags: --line-length=60
from tvm.script import tir as T


@T.prim_func
def long_expr(A: T.Buffer((64,), "float32"), B: T.Buffer((64,), "float32"), C: T.Buffer((64,), "float32")):
    for i in range(64):
        C[i] = A[i] * B[i] + A[i] * T.float32(3) - B[i] * T.float32(0.5) + T.max(A[i], B[i])
        T.call_extern("int32", "trace_value", A.data, B.data, C.data, i, T.float32(1))
# output
from tvm.script import tir as T


@T.prim_func
def long_expr(
    A: T.Buffer((64,), "float32"),
    B: T.Buffer((64,), "float32"),
    C: T.Buffer((64,), "float32")
):
    for i in range(64):
        C[i] = A[i] * B[i] + A[i] * T.float32(3) - B[
            i
        ] * T.float32(0.5) + T.max(A[i], B[i])
        T.call_extern(
            "int32",
            "trace_value",
            A.data,
            B.data,
            C.data,
            i,
            T.float32(1)
        )
