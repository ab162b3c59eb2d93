# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((128, 4), "float32"), B: T.Buffer((128, 4), "float32")):
    T.func_attr({"global_symbol": "main", "target": T.target("llvm")})
    for i, j in T.grid(128, 4):
        B[i, j] = A[i, j] * T.float32(2)

# output
# from tvm.script import ir as I
# from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func
    def main(args: T.handle, arg_type_ids: T.handle("int32", "global"), num_args: T.int32, out_ret_value: T.handle("void", "global"), out_ret_tcode: T.handle("int32", "global"), resource_handle: T.handle) -> T.int32:
        T.func_attr({"calling_conv": 1, "target": {"kind": "llvm"}, "tir.is_entry_func": T.bool(True)})
        assert num_args == 2, "main: num_args should be 2"
        assert not T.isnullptr(args), "main: TVMValue* arg pointer was NULL"
        assert not T.isnullptr(arg_type_ids), "main: int* type_codes was NULL"
        arg_type_ids_1 = T.decl_buffer((2,), "int32", data=arg_type_ids)
        A_code: T.int32 = arg_type_ids_1[0]
        assert A_code == 3 or A_code == 13 or A_code == 7 or A_code == 4, "main: Expect arg[0] to be pointer"
        B_code: T.int32 = arg_type_ids_1[1]
        assert B_code == 3 or B_code == 13 or B_code == 7 or B_code == 4, "main: Expect arg[1] to be pointer"
        A: T.handle = T.tvm_struct_get(args, 0, 12, "handle")
        B: T.handle = T.tvm_struct_get(args, 1, 12, "handle")
        assert not T.isnullptr(A), "main.A is expected to have non-NULL DLTensor* pointer"
        assert 2 == T.tvm_struct_get(A, 0, 4, "int32"), "main.A.ndim is expected to equal 2"
        main_A_shape: T.handle("int64", "global") = T.tvm_struct_get(A, 0, 2, "handle")
        main_A_shape_1 = T.decl_buffer((2,), "int64", data=main_A_shape)
        main_A_strides: T.handle("int64", "global") = T.tvm_struct_get(A, 0, 3, "handle")
        main_A_strides_1 = T.decl_buffer((0,), "int64", data=main_A_strides)
        dev_id: T.int32 = T.tvm_struct_get(A, 0, 9, "int32")
        A_1: T.handle("float32", "global") = T.tvm_struct_get(A, 0, 1, "handle")
        T.attr(A_1, "storage_alignment", 64)
        assert not T.isnullptr(B), "main.B is expected to have non-NULL DLTensor* pointer"
        assert 2 == T.tvm_struct_get(B, 0, 4, "int32"), "main.B.ndim is expected to equal 2"
        main_B_shape: T.handle("int64", "global") = T.tvm_struct_get(B, 0, 2, "handle")
        main_B_shape_1 = T.decl_buffer((2,), "int64", data=main_B_shape)
        main_B_strides: T.handle("int64", "global") = T.tvm_struct_get(B, 0, 3, "handle")
        main_B_strides_1 = T.decl_buffer((0,), "int64", data=main_B_strides)
        B_1: T.handle("float32", "global") = T.tvm_struct_get(B, 0, 1, "handle")
        T.attr(B_1, "storage_alignment", 64)
        T.attr("default", "device_id", dev_id)
        T.attr("default", "device_type", 1)
        assert T.tvm_struct_get(A, 0, 5, "uint8") == T.uint8(2) and T.tvm_struct_get(A, 0, 6, "uint8") == T.uint8(32) and T.tvm_struct_get(A, 0, 7, "uint16") == T.uint16(1), "main.A.dtype is expected to be float32"
        assert T.Cast("int32", main_A_shape_1[0]) == 128, "Argument main.A.shape[0] has an unsatisfied constraint: 128 == T.Cast(\"int32\", main_A_shape[0])"
        assert T.Cast("int32", main_A_shape_1[1]) == 4, "Argument main.A.shape[1] has an unsatisfied constraint: 4 == T.Cast(\"int32\", main_A_shape[1])"
        if not T.isnullptr(main_A_strides):
            assert 1 == T.Cast("int32", main_A_strides_1[1]) and 4 == T.Cast("int32", main_A_strides_1[0]), "main.A.strides: expected to be compact array"
            T.evaluate(0)
        assert T.uint64(0) == T.tvm_struct_get(A, 0, 8, "uint64"), "Argument main.A.byte_offset has an unsatisfied constraint: T.uint64(0) == T.tvm_struct_get(A, 0, 8, \"uint64\")"
        assert T.tvm_struct_get(A, 0, 10, "int32") == 1, "Argument main.A.device_type has an unsatisfied constraint: 1 == T.tvm_struct_get(A, 0, 10, \"int32\")"
        assert not T.isnullptr(A_1), "main.A is expected to have non-NULL data pointer"
        assert T.tvm_struct_get(B, 0, 5, "uint8") == T.uint8(2) and T.tvm_struct_get(B, 0, 6, "uint8") == T.uint8(32) and T.tvm_struct_get(B, 0, 7, "uint16") == T.uint16(1), "main.B.dtype is expected to be float32"
        assert T.Cast("int32", main_B_shape_1[0]) == 128, "Argument main.B.shape[0] has an unsatisfied constraint: 128 == T.Cast(\"int32\", main_B_shape[0])"
        assert T.Cast("int32", main_B_shape_1[1]) == 4, "Argument main.B.shape[1] has an unsatisfied constraint: 4 == T.Cast(\"int32\", main_B_shape[1])"
        if not T.isnullptr(main_B_strides):
            assert 1 == T.Cast("int32", main_B_strides_1[1]) and 4 == T.Cast("int32", main_B_strides_1[0]), "main.B.strides: expected to be compact array"
            T.evaluate(0)
        assert T.uint64(0) == T.tvm_struct_get(B, 0, 8, "uint64"), "Argument main.B.byte_offset has an unsatisfied constraint: T.uint64(0) == T.tvm_struct_get(B, 0, 8, \"uint64\")"
        assert T.tvm_struct_get(B, 0, 10, "int32") == 1, "Argument main.B.device_type has an unsatisfied constraint: 1 == T.tvm_struct_get(B, 0, 10, \"int32\")"
        assert dev_id == T.tvm_struct_get(B, 0, 9, "int32"), "Argument main.B.device_id has an unsatisfied constraint: dev_id == T.tvm_struct_get(B, 0, 9, \"int32\")"
        assert not T.isnullptr(B_1), "main.B is expected to have non-NULL data pointer"
        A_2 = T.decl_buffer((128, 4), data=A_1)
        B_2 = T.decl_buffer((128, 4), data=B_1)
        with T.attr(0, "compute_scope", "main_compute_"):
            for i, j in T.grid(128, 4):
                B_2[i, j] = A_2[i, j] * T.float32(2.0)
        T.ret(0)
