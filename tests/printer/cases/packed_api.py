@T.prim_func
def mmult(args: T.handle, arg_type_ids: T.handle("int32", "global"), num_args: T.int32, out_ret_value: T.handle, out_ret_tcode: T.handle("int32", "global")) -> T.int32:
    T.func_attr({"calling_conv": 1, "global_symbol": "mmult", "target": T.target("llvm"), "tir.is_entry_func": True, "tir.noalias": True})
    assert num_args == 1, "mmult: num_args should be 1"
    arg0: T.handle = T.tvm_struct_get(args, 0, 12, "handle")
    arg0_code: T.int32 = T.tvm_struct_get(arg_type_ids, 0, 0, "int32")
    A: T.handle("float32", "global") = T.tvm_struct_get(arg0, 0, 1, "handle")
    T.attr(A, "storage_alignment", 128)
    arg0_shape: T.handle("int64", "global") = T.tvm_struct_get(arg0, 0, 2, "handle")
    arg0_strides: T.handle("int64", "global") = T.tvm_struct_get(arg0, 0, 3, "handle")
    dev_id: T.int32 = T.tvm_struct_get(arg0, 0, 9, "int32")
    assert arg0_code == 3 or arg0_code == 13 or arg0_code == 7 or arg0_code == 4, "mmult: Expect arg[0] to be pointer"
    assert 2 == T.tvm_struct_get(arg0, 0, 4, "int32"), "arg0.ndim is expected to equal 2"
    assert T.tvm_struct_get(arg0, 0, 5, "uint8") == T.uint8(2) and T.tvm_struct_get(arg0, 0, 6, "uint8") == T.uint8(32) and T.tvm_struct_get(arg0, 0, 7, "uint16") == T.uint16(1), "arg0.dtype is expected to be float32"
    if not T.isnullptr(arg0_strides):
        T.evaluate(0)
    assert T.uint64(0) == T.tvm_struct_get(arg0, 0, 8, "uint64"), "Argument arg0.byte_offset has an unsatisfied constraint"
    assert 1 == T.tvm_struct_get(arg0, 0, 10, "int32"), "Argument arg0.device_type has an unsatisfied constraint"
    T.attr(0, "compute_scope", "mmult_compute_")
    A_1 = T.Buffer((1048576,), data=A)
    for x, y in T.grid(1024, 1024):
        A_1[x * 1024 + y] = T.call_llvm_pure_intrin("float32", "llvm.fmuladd", T.uint32(3), A_1[x * 1024 + y], A_1[y * 1024 + x], T.float32(1))
    T.ret(0)
# output
# from tvm.script import tir as T

@T.prim_func
def mmult(args: T.handle, arg_type_ids: T.handle("int32", "global"), num_args: T.int32, out_ret_value: T.handle, out_ret_tcode: T.handle("int32", "global")) -> T.int32:
    T.func_attr({"calling_conv": 1, "target": {"kind": "llvm"}, "tir.is_entry_func": True, "tir.noalias": True})
    assert num_args == 1, "mmult: num_args should be 1"
    arg0: T.handle = T.tvm_struct_get(args, 0, 12, "handle")
    arg0_code: T.int32 = T.tvm_struct_get(arg_type_ids, 0, 0, "int32")
    A: T.handle("float32", "global") = T.tvm_struct_get(arg0, 0, 1, "handle")
    T.attr(A, "storage_alignment", 128)
    arg0_shape: T.handle("int64", "global") = T.tvm_struct_get(arg0, 0, 2, "handle")
    arg0_strides: T.handle("int64", "global") = T.tvm_struct_get(arg0, 0, 3, "handle")
    dev_id: T.int32 = T.tvm_struct_get(arg0, 0, 9, "int32")
    assert arg0_code == 3 or arg0_code == 13 or arg0_code == 7 or arg0_code == 4, "mmult: Expect arg[0] to be pointer"
    assert 2 == T.tvm_struct_get(arg0, 0, 4, "int32"), "arg0.ndim is expected to equal 2"
    assert T.tvm_struct_get(arg0, 0, 5, "uint8") == T.uint8(2) and T.tvm_struct_get(arg0, 0, 6, "uint8") == T.uint8(32) and T.tvm_struct_get(arg0, 0, 7, "uint16") == T.uint16(1), "arg0.dtype is expected to be float32"
    if not T.isnullptr(arg0_strides):
        T.evaluate(0)
    assert T.uint64(0) == T.tvm_struct_get(arg0, 0, 8, "uint64"), "Argument arg0.byte_offset has an unsatisfied constraint"
    assert 1 == T.tvm_struct_get(arg0, 0, 10, "int32"), "Argument arg0.device_type has an unsatisfied constraint"
    T.attr(0, "compute_scope", "mmult_compute_")
    for x, y in T.grid(1024, 1024):
        A_1 = T.Buffer((1048576,), data=A)
        A_1[x * 1024 + y] = T.call_llvm_pure_intrin("float32", "llvm.fmuladd", T.uint32(3), A_1[x * 1024 + y], A_1[y * 1024 + x], T.float32(1.0))
    T.ret(0)
