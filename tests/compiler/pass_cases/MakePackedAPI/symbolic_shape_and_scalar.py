# from tvm.script import tir as T

@T.prim_func
def add(a: T.handle, b: T.handle, n: T.int32, alpha: T.float32, flag: T.bool):
    T.func_attr({"global_symbol": "add", "target": T.target("llvm")})
    m = T.int32()
    A = T.match_buffer(a, (n, m), "float16")
    B = T.match_buffer(b, (n, m), "float16")
    for i, j in T.grid(n, m):
        if flag:
            B[i, j] = A[i, j] * T.Cast("float16", alpha)

# output
# from tvm.script import ir as I
# from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func
    def add(args: T.handle, arg_type_ids: T.handle("int32", "global"), num_args: T.int32, out_ret_value: T.handle("void", "global"), out_ret_tcode: T.handle("int32", "global"), resource_handle: T.handle) -> T.int32:
        T.func_attr({"calling_conv": 1, "target": {"kind": "llvm"}, "tir.is_entry_func": T.bool(True)})
        assert num_args == 5, "add: num_args should be 5"
        assert not T.isnullptr(args), "add: TVMValue* arg pointer was NULL"
        assert not T.isnullptr(arg_type_ids), "add: int* type_codes was NULL"
        arg_type_ids_1 = T.decl_buffer((5,), "int32", data=arg_type_ids)
        a_code: T.int32 = arg_type_ids_1[0]
        assert a_code == 3 or a_code == 13 or a_code == 7 or a_code == 4, "add: Expect arg[0] to be pointer"
        b_code: T.int32 = arg_type_ids_1[1]
        assert b_code == 3 or b_code == 13 or b_code == 7 or b_code == 4, "add: Expect arg[1] to be pointer"
        n_code: T.int32 = arg_type_ids_1[2]
        assert n_code == 0 or n_code == 15, "add: Expect arg[2] to be int"
        alpha_code: T.int32 = arg_type_ids_1[3]
        assert alpha_code == 2, "add: Expect arg[3] to be float"
        flag_code: T.int32 = arg_type_ids_1[4]
        assert flag_code == 15 or flag_code == 0, "add: Expect arg[4] to be boolean"
        a: T.handle = T.tvm_struct_get(args, 0, 12, "handle")
        b: T.handle = T.tvm_struct_get(args, 1, 12, "handle")
        n: T.int32 = T.Cast("int32", T.tvm_struct_get(args, 2, 12, "int64"))
        alpha: T.float32 = T.Cast("float32", T.tvm_struct_get(args, 3, 12, "float64"))
        flag: T.bool = T.Cast("bool", T.tvm_struct_get(args, 4, 12, "int64"))
        assert not T.isnullptr(a), "add.a is expected to have non-NULL DLTensor* pointer"
        assert 2 == T.tvm_struct_get(a, 0, 4, "int32"), "add.a.ndim is expected to equal 2"
        add_a_shape: T.handle("int64", "global") = T.tvm_struct_get(a, 0, 2, "handle")
        add_a_shape_1 = T.decl_buffer((2,), "int64", data=add_a_shape)
        m: T.int32 = T.Cast("int32", add_a_shape_1[1])
        add_a_strides: T.handle("int64", "global") = T.tvm_struct_get(a, 0, 3, "handle")
        add_a_strides_1 = T.decl_buffer((0,), "int64", data=add_a_strides)
        dev_id: T.int32 = T.tvm_struct_get(a, 0, 9, "int32")
        A: T.handle("float16", "global") = T.tvm_struct_get(a, 0, 1, "handle")
        T.attr(A, "storage_alignment", 64)
        assert not T.isnullptr(b), "add.b is expected to have non-NULL DLTensor* pointer"
        assert 2 == T.tvm_struct_get(b, 0, 4, "int32"), "add.b.ndim is expected to equal 2"
        add_b_shape: T.handle("int64", "global") = T.tvm_struct_get(b, 0, 2, "handle")
        add_b_shape_1 = T.decl_buffer((2,), "int64", data=add_b_shape)
        add_b_strides: T.handle("int64", "global") = T.tvm_struct_get(b, 0, 3, "handle")
        add_b_strides_1 = T.decl_buffer((0,), "int64", data=add_b_strides)
        B: T.handle("float16", "global") = T.tvm_struct_get(b, 0, 1, "handle")
        T.attr(B, "storage_alignment", 64)
        T.attr("default", "device_id", dev_id)
        T.attr("default", "device_type", 1)
        assert T.tvm_struct_get(a, 0, 5, "uint8") == T.uint8(2) and T.tvm_struct_get(a, 0, 6, "uint8") == T.uint8(16) and T.tvm_struct_get(a, 0, 7, "uint16") == T.uint16(1), "add.a.dtype is expected to be float16"
        assert n == T.Cast("int32", add_a_shape_1[0]), "Argument add.a.shape[0] has an unsatisfied constraint: n == T.Cast(\"int32\", add_a_shape[0])"
        if not T.isnullptr(add_a_strides):
            assert (m == 1 or 1 == T.Cast("int32", add_a_strides_1[1])) and (n == 1 or m == T.Cast("int32", add_a_strides_1[0])), "add.a.strides: expected to be compact array"
            T.evaluate(0)
        assert T.uint64(0) == T.tvm_struct_get(a, 0, 8, "uint64"), "Argument add.a.byte_offset has an unsatisfied constraint: T.uint64(0) == T.tvm_struct_get(a, 0, 8, \"uint64\")"
        assert T.tvm_struct_get(a, 0, 10, "int32") == 1, "Argument add.a.device_type has an unsatisfied constraint: 1 == T.tvm_struct_get(a, 0, 10, \"int32\")"
        assert n * m == 0 or not T.isnullptr(A), "add.a is expected to have non-NULL data pointer"
        assert T.tvm_struct_get(b, 0, 5, "uint8") == T.uint8(2) and T.tvm_struct_get(b, 0, 6, "uint8") == T.uint8(16) and T.tvm_struct_get(b, 0, 7, "uint16") == T.uint16(1), "add.b.dtype is expected to be float16"
        assert n == T.Cast("int32", add_b_shape_1[0]), "Argument add.b.shape[0] has an unsatisfied constraint: n == T.Cast(\"int32\", add_b_shape[0])"
        assert m == T.Cast("int32", add_b_shape_1[1]), "Argument add.b.shape[1] has an unsatisfied constraint: m == T.Cast(\"int32\", add_b_shape[1])"
        if not T.isnullptr(add_b_strides):
            assert (m == 1 or 1 == T.Cast("int32", add_b_strides_1[1])) and (n == 1 or m == T.Cast("int32", add_b_strides_1[0])), "add.b.strides: expected to be compact array"
            T.evaluate(0)
        assert T.uint64(0) == T.tvm_struct_get(b, 0, 8, "uint64"), "Argument add.b.byte_offset has an unsatisfied constraint: T.uint64(0) == T.tvm_struct_get(b, 0, 8, \"uint64\")"
        assert T.tvm_struct_get(b, 0, 10, "int32") == 1, "Argument add.b.device_type has an unsatisfied constraint: 1 == T.tvm_struct_get(b, 0, 10, \"int32\")"
        assert dev_id == T.tvm_struct_get(b, 0, 9, "int32"), "Argument add.b.device_id has an unsatisfied constraint: dev_id == T.tvm_struct_get(b, 0, 9, \"int32\")"
        assert n * m == 0 or not T.isnullptr(B), "add.b is expected to have non-NULL data pointer"
        A_1 = T.decl_buffer((n, m), "float16", data=A)
        B_1 = T.decl_buffer((n, m), "float16", data=B)
        with T.attr(0, "compute_scope", "add_compute_"):
            for i, j in T.grid(n, m):
                if flag:
                    B_1[i, j] = A_1[i, j] * T.Cast("float16", alpha)
        T.ret(0)
