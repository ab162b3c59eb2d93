# Packed-API host functions after MakePackedAPI (seed 000's host module in modern TVMScript).
from tvm.script import tir as T


# host function for a 3-argument float32 kernel: arg unpacking, type/shape/stride checks, compute scope
@T.prim_func
def mmult(
    args: T.handle,
    arg_type_ids: T.handle("int32"),
    num_args: T.int32,
    out_ret_value: T.handle("void"),
    out_ret_tcode: T.handle("int32"),
    resource_handle: T.handle,
) -> T.int32:
    T.func_attr(
        {
            "calling_conv": 1,
            "global_symbol": "mmult",
            "target": T.target("llvm"),
            "tir.is_entry_func": True,
            "tir.noalias": True,
        }
    )
    assert num_args == 3, "mmult: num_args should be 3"
    arg_type_ids_1 = T.decl_buffer((3,), "int32", data=arg_type_ids)
    arg_0: T.handle = T.tvm_struct_get(args, 0, 12, "handle")
    arg_0_code: T.int32 = arg_type_ids_1[0]
    arg_1: T.handle = T.tvm_struct_get(args, 1, 12, "handle")
    arg_1_code: T.int32 = arg_type_ids_1[1]
    arg_2: T.handle = T.tvm_struct_get(args, 2, 12, "handle")
    arg_2_code: T.int32 = arg_type_ids_1[2]
    A: T.handle("float32") = T.tvm_struct_get(arg_0, 0, 1, "handle")
    T.attr(A, "storage_alignment", 128)
    arg_0_shape: T.handle("int64") = T.tvm_struct_get(arg_0, 0, 2, "handle")
    arg_0_shape_1 = T.decl_buffer((2,), "int64", data=arg_0_shape)
    arg_0_strides: T.handle("int64") = T.tvm_struct_get(arg_0, 0, 3, "handle")
    dev_id: T.int32 = T.tvm_struct_get(arg_0, 0, 9, "int32")
    B: T.handle("float32") = T.tvm_struct_get(arg_1, 0, 1, "handle")
    T.attr(B, "storage_alignment", 128)
    arg_1_shape: T.handle("int64") = T.tvm_struct_get(arg_1, 0, 2, "handle")
    arg_1_shape_1 = T.decl_buffer((2,), "int64", data=arg_1_shape)
    arg_1_strides: T.handle("int64") = T.tvm_struct_get(arg_1, 0, 3, "handle")
    C: T.handle("float32") = T.tvm_struct_get(arg_2, 0, 1, "handle")
    T.attr(C, "storage_alignment", 128)
    arg_2_shape: T.handle("int64") = T.tvm_struct_get(arg_2, 0, 2, "handle")
    arg_2_shape_1 = T.decl_buffer((2,), "int64", data=arg_2_shape)
    arg_2_strides: T.handle("int64") = T.tvm_struct_get(arg_2, 0, 3, "handle")
    assert arg_0_code == 3 or arg_0_code == 13 or arg_0_code == 7 or arg_0_code == 4, "mmult: Expect arg[0] to be pointer"
    assert arg_1_code == 3 or arg_1_code == 13 or arg_1_code == 7 or arg_1_code == 4, "mmult: Expect arg[1] to be pointer"
    assert arg_2_code == 3 or arg_2_code == 13 or arg_2_code == 7 or arg_2_code == 4, "mmult: Expect arg[2] to be pointer"
    # argument 0: ndim, dtype, shape, strides, byte offset, device
    assert 2 == T.tvm_struct_get(arg_0, 0, 4, "int32"), "arg0.ndim is expected to equal 2"
    assert (
        T.tvm_struct_get(arg_0, 0, 5, "uint8") == T.uint8(2)
        and T.tvm_struct_get(arg_0, 0, 6, "uint8") == T.uint8(32)
        and T.tvm_struct_get(arg_0, 0, 7, "uint16") == T.uint16(1)
    ), "arg0.dtype is expected to be float32"
    assert 1024 == T.Cast("int32", arg_0_shape_1[0]), "Argument arg0.shape[0] has an unsatisfied constraint"
    assert 1024 == T.Cast("int32", arg_0_shape_1[1]), "Argument arg0.shape[1] has an unsatisfied constraint"
    if not T.isnullptr(arg_0_strides):
        arg_0_strides_1 = T.decl_buffer((2,), "int64", data=arg_0_strides)
        assert 1 == T.Cast("int32", arg_0_strides_1[1]) and 1024 == T.Cast("int32", arg_0_strides_1[0]), "arg0.strides: expected to be compact array"
        T.evaluate(0)
    assert T.uint64(0) == T.tvm_struct_get(arg_0, 0, 8, "uint64"), "Argument arg0.byte_offset has an unsatisfied constraint"
    assert 1 == T.tvm_struct_get(arg_0, 0, 10, "int32"), "Argument arg0.device_type has an unsatisfied constraint"
    # argument 1
    assert 2 == T.tvm_struct_get(arg_1, 0, 4, "int32"), "arg1.ndim is expected to equal 2"
    assert (
        T.tvm_struct_get(arg_1, 0, 5, "uint8") == T.uint8(2)
        and T.tvm_struct_get(arg_1, 0, 6, "uint8") == T.uint8(32)
        and T.tvm_struct_get(arg_1, 0, 7, "uint16") == T.uint16(1)
    ), "arg1.dtype is expected to be float32"
    assert 1024 == T.Cast("int32", arg_1_shape_1[0]), "Argument arg1.shape[0] has an unsatisfied constraint"
    assert 1024 == T.Cast("int32", arg_1_shape_1[1]), "Argument arg1.shape[1] has an unsatisfied constraint"
    if not T.isnullptr(arg_1_strides):
        arg_1_strides_1 = T.decl_buffer((2,), "int64", data=arg_1_strides)
        assert 1 == T.Cast("int32", arg_1_strides_1[1]) and 1024 == T.Cast("int32", arg_1_strides_1[0]), "arg1.strides: expected to be compact array"
        T.evaluate(0)
    assert T.uint64(0) == T.tvm_struct_get(arg_1, 0, 8, "uint64"), "Argument arg1.byte_offset has an unsatisfied constraint"
    assert 1 == T.tvm_struct_get(arg_1, 0, 10, "int32"), "Argument arg1.device_type has an unsatisfied constraint"
    assert dev_id == T.tvm_struct_get(arg_1, 0, 9, "int32"), "Argument arg1.device_id has an unsatisfied constraint"
    # argument 2
    assert 2 == T.tvm_struct_get(arg_2, 0, 4, "int32"), "arg2.ndim is expected to equal 2"
    assert (
        T.tvm_struct_get(arg_2, 0, 5, "uint8") == T.uint8(2)
        and T.tvm_struct_get(arg_2, 0, 6, "uint8") == T.uint8(32)
        and T.tvm_struct_get(arg_2, 0, 7, "uint16") == T.uint16(1)
    ), "arg2.dtype is expected to be float32"
    assert 1024 == T.Cast("int32", arg_2_shape_1[0]), "Argument arg2.shape[0] has an unsatisfied constraint"
    assert 1024 == T.Cast("int32", arg_2_shape_1[1]), "Argument arg2.shape[1] has an unsatisfied constraint"
    if not T.isnullptr(arg_2_strides):
        arg_2_strides_1 = T.decl_buffer((2,), "int64", data=arg_2_strides)
        assert 1 == T.Cast("int32", arg_2_strides_1[1]) and 1024 == T.Cast("int32", arg_2_strides_1[0]), "arg2.strides: expected to be compact array"
        T.evaluate(0)
    assert T.uint64(0) == T.tvm_struct_get(arg_2, 0, 8, "uint64"), "Argument arg2.byte_offset has an unsatisfied constraint"
    assert 1 == T.tvm_struct_get(arg_2, 0, 10, "int32"), "Argument arg2.device_type has an unsatisfied constraint"
    assert dev_id == T.tvm_struct_get(arg_2, 0, 9, "int32"), "Argument arg2.device_id has an unsatisfied constraint"
    T.attr(0, "compute_scope", "mmult_compute_")
    A_1 = T.decl_buffer((1048576,), data=A)
    B_1 = T.decl_buffer((1048576,), data=B)
    C_1 = T.decl_buffer((1048576,), data=C)
    for x, y in T.grid(1024, 1024):
        C_1[x * 1024 + y] = T.float32(0)
        for k in range(1024):
            C_1[x * 1024 + y] = T.call_llvm_pure_intrin(
                "float32", "llvm.fmuladd", T.uint32(3), A_1[x * 1024 + k], B_1[k * 1024 + y], C_1[x * 1024 + y]
            )
    return 0


# a host wrapper that calls a device kernel through call_packed with a stack-allocated shape
@T.prim_func
def host_launcher(
    args: T.handle,
    arg_type_ids: T.handle("int32"),
    num_args: T.int32,
    out_ret_value: T.handle("void"),
    out_ret_tcode: T.handle("int32"),
    resource_handle: T.handle,
) -> T.int32:
    T.func_attr({"calling_conv": 1, "global_symbol": "host_launcher", "target": T.target("llvm"), "tir.is_entry_func": True})
    assert num_args == 1, "host_launcher: num_args should be 1"
    arg_type_ids_1 = T.decl_buffer((1,), "int32", data=arg_type_ids)
    x: T.handle = T.tvm_struct_get(args, 0, 12, "handle")
    x_code: T.int32 = arg_type_ids_1[0]
    assert x_code == 3 or x_code == 13 or x_code == 7 or x_code == 4, "host_launcher: Expect arg[0] to be pointer"
    x_data: T.handle("float32") = T.tvm_struct_get(x, 0, 1, "handle")
    stack_value: T.handle = T.tvm_stack_alloca("arg_value", 2)
    stack_tcode: T.handle = T.tvm_stack_alloca("arg_tcode", 2)
    T.tvm_struct_set(stack_value, 0, 12, x_data)
    T.tvm_struct_set(stack_value, 1, 12, T.Cast("int64", 128))
    T.evaluate(T.call_packed_lowered("device_kernel", stack_value, stack_tcode, 0, 2))
    return 0
