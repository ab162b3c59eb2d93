# Seed 000's three printed stages of mmult, translated to current classic TVMScript (TVM v0.20).
from tvm.script import ir as I
from tvm.script import tir as T


# after normalize schedule: buffer_bind -> match_buffer, realize dropped (buffers are params)
@I.ir_module
class AfterNormalize:
    @T.prim_func
    def mmult(a: T.handle, b: T.handle, c: T.handle):
        # function attr dict
        T.func_attr({"global_symbol": "mmult", "tir.noalias": True})
        A_1 = T.match_buffer(a, [1024, 1024], elem_offset=0, align=128, offset_factor=1)
        B_1 = T.match_buffer(b, [1024, 1024], elem_offset=0, align=128, offset_factor=1)
        C_1 = T.match_buffer(c, [1024, 1024], elem_offset=0, align=128, offset_factor=1)
        # body
        for x in range(0, 1024):
            for y in range(0, 1024):
                C_1[x, y] = T.float32(0)
                for k in range(0, 1024):
                    C_1[x, y] = C_1[x, y] + A_1[x, k] * B_1[k, y]


# after lower: tir.load / C_1.data[...] -> flat buffers declared over .data
@I.ir_module
class AfterLower:
    @T.prim_func
    def mmult(a: T.handle, b: T.handle, c: T.handle):
        T.func_attr({"global_symbol": "mmult", "tir.noalias": True})
        A_1 = T.match_buffer(a, [1024, 1024], elem_offset=0, align=128, offset_factor=1)
        B_1 = T.match_buffer(b, [1024, 1024], elem_offset=0, align=128, offset_factor=1)
        C_1 = T.match_buffer(c, [1024, 1024], elem_offset=0, align=128, offset_factor=1)
        A_flat = T.Buffer((1048576,), data=A_1.data)
        B_flat = T.Buffer((1048576,), data=B_1.data)
        C_flat = T.Buffer((1048576,), data=C_1.data)
        for x in range(0, 1024):
            for y in range(0, 1024):
                C_flat[x * 1024 + y] = T.float32(0)
                for k in range(0, 1024):
                    C_flat[x * 1024 + y] = C_flat[x * 1024 + y] + A_flat[x * 1024 + k] * B_flat[k * 1024 + y]


# host module: ty.* -> T.*, tir.load -> decl_buffer loads, meta[Target][0] -> T.target, intrinsic id 97 -> name
@I.ir_module
class HostModule:
    @T.prim_func
    def mmult(
        args: T.handle,
        arg_type_ids: T.handle("int32"),
        num_args: T.int32,
        out_ret_value: T.handle("void"),
        out_ret_tcode: T.handle("int32"),
    ) -> T.int32:
        T.func_attr({"target": T.target("llvm"), "tir.noalias": True, "global_symbol": "mmult", "tir.is_entry_func": True, "calling_conv": 1})
        assert num_args == 3, "mmult: num_args should be 3"
        type_ids = T.decl_buffer((3,), "int32", data=arg_type_ids)
        arg0: T.handle = T.tvm_struct_get(args, 0, 12, "handle")
        arg0_code: T.int32 = type_ids[0]
        arg1: T.handle = T.tvm_struct_get(args, 1, 12, "handle")
        arg1_code: T.int32 = type_ids[1]
        arg2: T.handle = T.tvm_struct_get(args, 2, 12, "handle")
        arg2_code: T.int32 = type_ids[2]
        A: T.handle("float32") = T.tvm_struct_get(arg0, 0, 1, "handle")
        T.attr(A, "storage_alignment", 128)
        arg0_shape: T.handle("int64") = T.tvm_struct_get(arg0, 0, 2, "handle")
        arg0_strides: T.handle("int64") = T.tvm_struct_get(arg0, 0, 3, "handle")
        dev_id: T.int32 = T.tvm_struct_get(arg0, 0, 9, "int32")
        B: T.handle("float32") = T.tvm_struct_get(arg1, 0, 1, "handle")
        T.attr(B, "storage_alignment", 128)
        arg1_shape: T.handle("int64") = T.tvm_struct_get(arg1, 0, 2, "handle")
        arg1_strides: T.handle("int64") = T.tvm_struct_get(arg1, 0, 3, "handle")
        C: T.handle("float32") = T.tvm_struct_get(arg2, 0, 1, "handle")
        T.attr(C, "storage_alignment", 128)
        arg2_shape: T.handle("int64") = T.tvm_struct_get(arg2, 0, 2, "handle")
        arg2_strides: T.handle("int64") = T.tvm_struct_get(arg2, 0, 3, "handle")
        assert arg0_code == 3 or arg0_code == 13 or arg0_code == 7 or arg0_code == 4, "mmult: Expect arg[0] to be pointer"
        assert arg1_code == 3 or arg1_code == 13 or arg1_code == 7 or arg1_code == 4, "mmult: Expect arg[1] to be pointer"
        assert arg2_code == 3 or arg2_code == 13 or arg2_code == 7 or arg2_code == 4, "mmult: Expect arg[2] to be pointer"
        assert 2 == T.tvm_struct_get(arg0, 0, 4, "int32"), "arg0.ndim is expected to equal 2"
        assert T.tvm_struct_get(arg0, 0, 5, "uint8") == T.uint8(2) and T.tvm_struct_get(arg0, 0, 6, "uint8") == T.uint8(32) and T.tvm_struct_get(arg0, 0, 7, "uint16") == T.uint16(1), "arg0.dtype is expected to be float32"
        shape0 = T.decl_buffer((2,), "int64", data=arg0_shape)
        assert 1024 == T.Cast("int32", shape0[0]), "Argument arg0.shape[0] has an unsatisfied constraint"
        assert 1024 == T.Cast("int32", shape0[1]), "Argument arg0.shape[1] has an unsatisfied constraint"
        if not T.isnullptr(arg0_strides):
            strides0 = T.decl_buffer((2,), "int64", data=arg0_strides)
            assert 1 == T.Cast("int32", strides0[1]) and 1024 == T.Cast("int32", strides0[0]), "arg0.strides: expected to be compact array"
            T.evaluate(0)
        assert T.uint64(0) == T.tvm_struct_get(arg0, 0, 8, "uint64"), "Argument arg0.byte_offset has an unsatisfied constraint"
        assert 1 == T.tvm_struct_get(arg0, 0, 10, "int32"), "Argument arg0.device_type has an unsatisfied constraint"
        assert 2 == T.tvm_struct_get(arg1, 0, 4, "int32"), "arg1.ndim is expected to equal 2"
        assert T.tvm_struct_get(arg1, 0, 5, "uint8") == T.uint8(2) and T.tvm_struct_get(arg1, 0, 6, "uint8") == T.uint8(32) and T.tvm_struct_get(arg1, 0, 7, "uint16") == T.uint16(1), "arg1.dtype is expected to be float32"
        shape1 = T.decl_buffer((2,), "int64", data=arg1_shape)
        assert 1024 == T.Cast("int32", shape1[0]), "Argument arg1.shape[0] has an unsatisfied constraint"
        assert 1024 == T.Cast("int32", shape1[1]), "Argument arg1.shape[1] has an unsatisfied constraint"
        if not T.isnullptr(arg1_strides):
            strides1 = T.decl_buffer((2,), "int64", data=arg1_strides)
            assert 1 == T.Cast("int32", strides1[1]) and 1024 == T.Cast("int32", strides1[0]), "arg1.strides: expected to be compact array"
            T.evaluate(0)
        assert T.uint64(0) == T.tvm_struct_get(arg1, 0, 8, "uint64"), "Argument arg1.byte_offset has an unsatisfied constraint"
        assert 1 == T.tvm_struct_get(arg1, 0, 10, "int32"), "Argument arg1.device_type has an unsatisfied constraint"
        assert dev_id == T.tvm_struct_get(arg1, 0, 9, "int32"), "Argument arg1.device_id has an unsatisfied constraint"
        assert 2 == T.tvm_struct_get(arg2, 0, 4, "int32"), "arg2.ndim is expected to equal 2"
        assert T.tvm_struct_get(arg2, 0, 5, "uint8") == T.uint8(2) and T.tvm_struct_get(arg2, 0, 6, "uint8") == T.uint8(32) and T.tvm_struct_get(arg2, 0, 7, "uint16") == T.uint16(1), "arg2.dtype is expected to be float32"
        shape2 = T.decl_buffer((2,), "int64", data=arg2_shape)
        assert 1024 == T.Cast("int32", shape2[0]), "Argument arg2.shape[0] has an unsatisfied constraint"
        assert 1024 == T.Cast("int32", shape2[1]), "Argument arg2.shape[1] has an unsatisfied constraint"
        if not T.isnullptr(arg2_strides):
            strides2 = T.decl_buffer((2,), "int64", data=arg2_strides)
            assert 1 == T.Cast("int32", strides2[1]) and 1024 == T.Cast("int32", strides2[0]), "arg2.strides: expected to be compact array"
            T.evaluate(0)
        assert T.uint64(0) == T.tvm_struct_get(arg2, 0, 8, "uint64"), "Argument arg2.byte_offset has an unsatisfied constraint"
        assert 1 == T.tvm_struct_get(arg2, 0, 10, "int32"), "Argument arg2.device_type has an unsatisfied constraint"
        assert dev_id == T.tvm_struct_get(arg2, 0, 9, "int32"), "Argument arg2.device_id has an unsatisfied constraint"
        T.attr(0, "compute_scope", "mmult_compute_")
        A_1 = T.decl_buffer((1048576,), data=A)
        B_1 = T.decl_buffer((1048576,), data=B)
        C_1 = T.decl_buffer((1048576,), data=C)
        for x in range(0, 1024):
            for y in range(0, 1024):
                C_1[x * 1024 + y] = T.float32(0)
                for k in range(0, 1024):
                    C_1[x * 1024 + y] = T.call_llvm_pure_intrin("float32", "llvm.fmuladd", T.uint32(3), A_1[x * 1024 + k], B_1[k * 1024 + y], C_1[x * 1024 + y])
        return 0


# the concise-scoping example of seed 000's design feature 1
@T.prim_func
def concise_scoping():
    packedB = T.allocate([16, 16, 16], "float32", "global")
    T.attr(0, "compute_scope", "mmult_compute_")
    T.attr(packedB, "storage_scope", "global")
    T.attr(packedB, "storage_alignment", 128)
    if T.isnullptr(packedB):
        T.evaluate(T.tvm_throw_last_error())
