# from tvm.script import tir as T

@T.prim_func
def answer(x: T.int64) -> T.int64:
    T.func_attr({"global_symbol": "answer", "target": T.target("llvm")})
    if x > T.int64(0):
        return x * T.int64(2)
    return T.int64(42)

# output
# from tvm.script import ir as I
# from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func
    def answer(args: T.handle, arg_type_ids: T.handle("int32", "global"), num_args: T.int32, out_ret_value: T.handle("void", "global"), out_ret_tcode: T.handle("int32", "global"), resource_handle: T.handle) -> T.int32:
        T.func_attr({"calling_conv": 1, "target": {"kind": "llvm"}, "tir.is_entry_func": T.bool(True)})
        assert num_args == 1, "answer: num_args should be 1"
        assert not T.isnullptr(args), "answer: TVMValue* arg pointer was NULL"
        assert not T.isnullptr(arg_type_ids), "answer: int* type_codes was NULL"
        arg_type_ids_1 = T.decl_buffer((1,), "int32", data=arg_type_ids)
        x_code: T.int32 = arg_type_ids_1[0]
        assert x_code == 0 or x_code == 15, "answer: Expect arg[0] to be int"
        x: T.int64 = T.tvm_struct_get(args, 0, 12, "int64")
        with T.attr(0, "compute_scope", "answer_compute_"):
            out_ret_value_1 = T.Buffer((1,), "int64", data=out_ret_value, strides=(1,))
            out_ret_tcode_1 = T.Buffer((1,), "int32", data=out_ret_tcode, strides=(1,))
            if x > T.int64(0):
                out_ret_value_1[0] = T.Cast("int64", x * T.int64(2))
                out_ret_tcode_1[0] = 0
                T.ret(0)
            out_ret_value_1[0] = T.Cast("int64", T.int64(42))
            out_ret_tcode_1[0] = 0
            T.ret(0)
        T.ret(0)
