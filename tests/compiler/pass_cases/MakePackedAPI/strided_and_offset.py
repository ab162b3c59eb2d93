# from tvm.script import tir as T

@T.prim_func
def copy(a: T.handle, b: T.handle):
    T.func_attr({"global_symbol": "copy", "target": T.target("llvm")})
    s = T.int32()
    off = T.int32()
    A = T.match_buffer(a, (16,), "int8", strides=(s,), elem_offset=off, offset_factor=4)
    B = T.match_buffer(b, (16,), "int8")
    for i in range(16):
        B[i] = A[i]

# output
# from tvm.script import ir as I
# from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func
    def copy(args: T.handle, arg_type_ids: T.handle("int32", "global"), num_args: T.int32, out_ret_value: T.handle("void", "global"), out_ret_tcode: T.handle("int32", "global"), resource_handle: T.handle) -> T.int32:
        T.func_attr({"calling_conv": 1, "target": {"kind": "llvm"}, "tir.is_entry_func": T.bool(True)})
        assert num_args == 2, "copy: num_args should be 2"
        assert not T.isnullptr(args), "copy: TVMValue* arg pointer was NULL"
        assert not T.isnullptr(arg_type_ids), "copy: int* type_codes was NULL"
        arg_type_ids_1 = T.decl_buffer((2,), "int32", data=arg_type_ids)
        a_code: T.int32 = arg_type_ids_1[0]
        assert a_code == 3 or a_code == 13 or a_code == 7 or a_code == 4, "copy: Expect arg[0] to be pointer"
        b_code: T.int32 = arg_type_ids_1[1]
        assert b_code == 3 or b_code == 13 or b_code == 7 or b_code == 4, "copy: Expect arg[1] to be pointer"
        a: T.handle = T.tvm_struct_get(args, 0, 12, "handle")
        b: T.handle = T.tvm_struct_get(args, 1, 12, "handle")
        assert not T.isnullptr(a), "copy.a is expected to have non-NULL DLTensor* pointer"
        assert 1 == T.tvm_struct_get(a, 0, 4, "int32"), "copy.a.ndim is expected to equal 1"
        copy_a_shape: T.handle("int64", "global") = T.tvm_struct_get(a, 0, 2, "handle")
        copy_a_shape_1 = T.decl_buffer((1,), "int64", data=copy_a_shape)
        copy_a_strides: T.handle("int64", "global") = T.tvm_struct_get(a, 0, 3, "handle")
        copy_a_strides_1 = T.decl_buffer((1,), "int64", data=copy_a_strides)
        s: T.int32 = T.if_then_else(T.isnullptr(copy_a_strides), 1, T.Cast("int32", copy_a_strides_1[0]))
        off: T.int32 = T.Cast("int32", T.tvm_struct_get(a, 0, 8, "uint64"))
        dev_id: T.int32 = T.tvm_struct_get(a, 0, 9, "int32")
        A: T.handle("int8", "global") = T.tvm_struct_get(a, 0, 1, "handle")
        T.attr(A, "storage_alignment", 64)
        assert not T.isnullptr(b), "copy.b is expected to have non-NULL DLTensor* pointer"
        assert 1 == T.tvm_struct_get(b, 0, 4, "int32"), "copy.b.ndim is expected to equal 1"
        copy_b_shape: T.handle("int64", "global") = T.tvm_struct_get(b, 0, 2, "handle")
        copy_b_shape_1 = T.decl_buffer((1,), "int64", data=copy_b_shape)
        copy_b_strides: T.handle("int64", "global") = T.tvm_struct_get(b, 0, 3, "handle")
        copy_b_strides_1 = T.decl_buffer((0,), "int64", data=copy_b_strides)
        B: T.handle("int8", "global") = T.tvm_struct_get(b, 0, 1, "handle")
        T.attr(B, "storage_alignment", 64)
        T.attr("default", "device_id", dev_id)
        T.attr("default", "device_type", 1)
        assert T.tvm_struct_get(a, 0, 5, "uint8") == T.uint8(0) and T.tvm_struct_get(a, 0, 6, "uint8") == T.uint8(8) and T.tvm_struct_get(a, 0, 7, "uint16") == T.uint16(1), "copy.a.dtype is expected to be int8"
        assert T.Cast("int32", copy_a_shape_1[0]) == 16, "Argument copy.a.shape[0] has an unsatisfied constraint: 16 == T.Cast(\"int32\", copy_a_shape[0])"
        assert T.truncmod(off, 4) == 0, "Argument copy.a.elem_offset has an unsatisfied constraint: T.truncmod(off, 4) == 0"
        assert T.tvm_struct_get(a, 0, 10, "int32") == 1, "Argument copy.a.device_type has an unsatisfied constraint: 1 == T.tvm_struct_get(a, 0, 10, \"int32\")"
        assert not T.isnullptr(A), "copy.a is expected to have non-NULL data pointer"
        assert T.tvm_struct_get(b, 0, 5, "uint8") == T.uint8(0) and T.tvm_struct_get(b, 0, 6, "uint8") == T.uint8(8) and T.tvm_struct_get(b, 0, 7, "uint16") == T.uint16(1), "copy.b.dtype is expected to be int8"
        assert T.Cast("int32", copy_b_shape_1[0]) == 16, "Argument copy.b.shape[0] has an unsatisfied constraint: 16 == T.Cast(\"int32\", copy_b_shape[0])"
        if not T.isnullptr(copy_b_strides):
            assert 1 == T.Cast("int32", copy_b_strides_1[0]), "copy.b.strides: expected to be compact array"
            T.evaluate(0)
        assert T.uint64(0) == T.tvm_struct_get(b, 0, 8, "uint64"), "Argument copy.b.byte_offset has an unsatisfied constraint: T.uint64(0) == T.tvm_struct_get(b, 0, 8, \"uint64\")"
        assert T.tvm_struct_get(b, 0, 10, "int32") == 1, "Argument copy.b.device_type has an unsatisfied constraint: 1 == T.tvm_struct_get(b, 0, 10, \"int32\")"
        assert dev_id == T.tvm_struct_get(b, 0, 9, "int32"), "Argument copy.b.device_id has an unsatisfied constraint: dev_id == T.tvm_struct_get(b, 0, 9, \"int32\")"
        assert not T.isnullptr(B), "copy.b is expected to have non-NULL data pointer"
        A_1 = T.decl_buffer((16,), "int8", data=A, strides=(s,), elem_offset=off, offset_factor=4)
        B_1 = T.decl_buffer((16,), "int8", data=B)
        with T.attr(0, "compute_scope", "copy_compute_"):
            for i in range(16):
                B_1[i] = A_1[i]
        T.ret(0)
