# The host function the packed-API stage makes of seed 000's mmult, in current TVMScript.
from tvm.script import tir as T


@T.prim_func
def mmult(args: T.handle, arg_type_ids: T.handle("int32"), num_args: T.int32, out_ret_value: T.handle("void"), out_ret_tcode: T.handle("int32"), resource_handle: T.handle) -> T.int32:
    T.func_attr({"calling_conv": 1, "global_symbol": "mmult", "target": T.target({"keys": ["cpu"], "kind": "llvm", "tag": ""}), "tir.is_entry_func": True, "tir.noalias": True})
    assert num_args == 3, "mmult: num_args should be 3"
    arg_type_ids_1 = T.decl_buffer((3,), "int32", data=arg_type_ids)
    arg0: T.handle = T.tvm_struct_get(args, 0, 12, "handle")
    arg0_code: T.int32 = arg_type_ids_1[0]
    arg1: T.handle = T.tvm_struct_get(args, 1, 12, "handle")
    arg1_code: T.int32 = arg_type_ids_1[1]
    A: T.handle("float32") = T.tvm_struct_get(arg0, 0, 1, "handle")
    T.attr(A, "storage_alignment", 128)
    arg0_shape: T.handle("int64") = T.tvm_struct_get(arg0, 0, 2, "handle")
    arg0_shape_1 = T.decl_buffer((2,), "int64", data=arg0_shape)
    arg0_strides: T.handle("int64") = T.tvm_struct_get(arg0, 0, 3, "handle")
    dev_id: T.int32 = T.tvm_struct_get(arg0, 0, 9, "int32")
    assert arg0_code == 3 or arg0_code == 13 or arg0_code == 7 or arg0_code == 4, "mmult: Expect arg[0] to be pointer"
    assert arg1_code == 3 or arg1_code == 13 or arg1_code == 7 or arg1_code == 4, "mmult: Expect arg[1] to be pointer"
    assert 2 == T.tvm_struct_get(arg0, 0, 4, "int32"), "arg0.ndim is expected to equal 2"
    assert T.tvm_struct_get(arg0, 0, 5, "uint8") == T.uint8(2) and T.tvm_struct_get(arg0, 0, 6, "uint8") == T.uint8(32) and T.tvm_struct_get(arg0, 0, 7, "uint16") == T.uint16(1), "arg0.dtype is expected to be float32"
    assert T.Cast("int32", arg0_shape_1[0]) == 1024, "Argument arg0.shape[0] has an unsatisfied constraint"
    if not T.isnullptr(arg0_strides):
        arg0_strides_1 = T.decl_buffer((2,), "int64", data=arg0_strides)
        assert 1 == T.Cast("int32", arg0_strides_1[1]) and 1024 == T.Cast("int32", arg0_strides_1[0]), "arg0.strides: expected to be compact array"
        T.evaluate(0)
    assert T.uint64(0) == T.tvm_struct_get(arg0, 0, 8, "uint64"), "Argument arg0.byte_offset has an unsatisfied constraint"
    assert T.tvm_struct_get(arg0, 0, 10, "int32") == 1, "Argument arg0.device_type has an unsatisfied constraint"
    B: T.handle("float32") = T.tvm_struct_get(arg1, 0, 1, "handle")
    T.attr(0, "compute_scope", "mmult_compute_")
    A_1 = T.decl_buffer((1048576,), data=A)
    B_1 = T.decl_buffer((1048576,), data=B)
    for x, y in T.grid(1024, 1024):
        B_1[x * 1024 + y] = T.float32(0)
        for k in range(1024):
            B_1[x * 1024 + y] = T.call_llvm_pure_intrin("float32", "llvm.fmuladd", T.uint32(3), A_1[x * 1024 + k], A_1[k * 1024 + y], B_1[x * 1024 + y])
    return 0
