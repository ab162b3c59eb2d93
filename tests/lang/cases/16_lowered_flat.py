# Lowered, flattened code: flat buffers over .data, T.allocate (concise and with), T.attr, seed 000's after-lower mmult.
from tvm.script import tir as T


# seed 000 "after lower" mmult, modern spelling: flat buffers declared over the params' data
@T.prim_func
def mmult_lowered(A: T.Buffer((1024, 1024), "float32"), B: T.Buffer((1024, 1024), "float32"), C: T.Buffer((1024, 1024), "float32")):
    T.func_attr({"global_symbol": "mmult", "tir.noalias": True})
    A_1 = T.Buffer((1048576,), data=A.data)
    B_1 = T.Buffer((1048576,), data=B.data)
    C_1 = T.Buffer((1048576,), data=C.data)
    for x in range(1024):
        for y in range(1024):
            C_1[x * 1024 + y] = T.float32(0)
            for k in range(1024):
                C_1[x * 1024 + y] = C_1[x * 1024 + y] + A_1[x * 1024 + k] * B_1[k * 1024 + y]


# packed B buffer with concise allocate and storage attrs (seed 000 concise scoping)
@T.prim_func
def mmult_packed(A: T.Buffer((1024, 1024), "float32"), B: T.Buffer((1024, 1024), "float32"), C: T.Buffer((1024, 1024), "float32")):
    T.func_attr({"global_symbol": "mmult_packed", "tir.noalias": True})
    packedB = T.allocate([32, 1024, 32], "float32", "global")
    T.attr(0, "compute_scope", "mmult_packed_compute_")
    packedB_1 = T.Buffer((1048576,), data=packedB)
    A_1 = T.Buffer((1048576,), data=A.data)
    B_1 = T.Buffer((1048576,), data=B.data)
    C_1 = T.Buffer((1048576,), data=C.data)
    for x in T.parallel(32):
        for y in range(1024):
            for z in T.vectorized(32):
                packedB_1[x * 32768 + y * 32 + z] = B_1[y * 1024 + x * 32 + z]
    for x_outer in T.parallel(32):
        for y_outer, x_c_init in T.grid(32, 32):
            for y_c_init in T.vectorized(32):
                C_1[x_outer * 32768 + x_c_init * 1024 + y_outer * 32 + y_c_init] = T.float32(0)
        for y_outer, k_outer, k_inner, x_c in T.grid(32, 256, 4, 32):
            for y_c in T.vectorized(32):
                C_1[x_outer * 32768 + x_c * 1024 + y_outer * 32 + y_c] = (
                    C_1[x_outer * 32768 + x_c * 1024 + y_outer * 32 + y_c]
                    + A_1[x_outer * 32768 + x_c * 1024 + k_outer * 4 + k_inner]
                    * packedB_1[y_outer * 32768 + (k_outer * 4 + k_inner) * 32 + y_c]
                )


# with-form allocate and with-form attr, nested
@T.prim_func
def scratch_with(A: T.Buffer((64,), "float32"), B: T.Buffer((64,), "float32")):
    with T.allocate([64], "float32", "global") as tmp:
        tmp_1 = T.Buffer((64,), data=tmp)
        with T.attr(tmp, "storage_alignment", 64):
            for i in range(64):
                tmp_1[i] = A[i] * T.float32(2)
            for i in range(64):
                B[i] = tmp_1[63 - i]


# allocate with a condition and annotations, decl_buffer over it
@T.prim_func
def allocate_annotated(n: T.int32, A: T.Buffer((16,), "int32")):
    buf = T.allocate([16], "int32", "global", n > 0, annotations={"disable_lower_builtin": True})
    buf_1 = T.decl_buffer((16,), "int32", data=buf)
    for i in range(16):
        buf_1[i] = A[i] + n
    for i in range(16):
        A[i] = buf_1[i]


# the concise attr chain from seed 000's design feature 1, with a null-pointer check
@T.prim_func
def attr_chain(n: T.int32):
    packedB = T.allocate([16, 16, 16], "float32", "global")
    T.attr(0, "compute_scope", "mmult_compute_")
    T.attr(packedB, "storage_alignment", 128)
    if T.isnullptr(packedB):
        T.evaluate(T.tvm_throw_last_error())
    packedB_1 = T.Buffer((4096,), data=packedB)
    for i in range(n):
        packedB_1[i] = T.float32(0)
