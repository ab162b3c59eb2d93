from tvm.script import tir as T


@T.prim_func
def lowered_flat(a: T.handle, b: T.handle):
    T.func_attr({"global_symbol": "lowered_flat", "tir.noalias": True})
    A = T.match_buffer(a, (16384,), "float32", align=64)
    B = T.match_buffer(b, (16384,), "float32", align=64)
    packed = T.allocate([128], "float32", "global")
    packed_buf = T.decl_buffer((128,), data=packed)
    T.attr(0, "compute_scope", "lowered_flat_compute_")
    for i in T.parallel(128):
        for j in T.serial(128):
            packed_buf[j] = A[i * 128 + j] * T.float32(2)
        for j_outer in range(32):
            for j_inner in T.vectorized(4):
                B[i * 128 + j_outer * 4 + j_inner] = packed_buf[j_outer * 4 + j_inner]
    for x in T.unroll(4):
        T.evaluate(T.call_extern("int32", "printf", "%d\n", x))
    handle = T.tvm_struct_get(a, 0, 1, dtype="handle")
    if T.isnullptr(handle):
        T.evaluate(T.tvm_throw_last_error())
    B_1 = T.Buffer((16384,), data=B.data)
    B_1[0] = T.call_llvm_pure_intrin("float32", "llvm.fmuladd", T.uint32(3), A[0], A[1], B_1[0])
