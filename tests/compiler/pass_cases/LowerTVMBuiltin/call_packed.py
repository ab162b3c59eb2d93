# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((16,), "float32"), n: T.int32):
    T.func_attr({"global_symbol": "main"})
    T.attr("default", "device_id", 0)
    T.attr("default", "device_type", 1)
    T.evaluate(T.call_packed("my_func", A.data, n, T.float32(0.5), "name"))
    T.evaluate(T.call_packed("other", n))

# output
# from tvm.script import ir as I
# from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16,), "float32"), n: T.int32):
        stack_tcode: T.handle("int32", "global") = T.tvm_stack_alloca("arg_tcode", 5)
        stack_value: T.handle = T.tvm_stack_alloca("arg_value", 5)
        T.tvm_struct_set(stack_value, 0, 12, A.data)
        stack_tcode_1 = T.Buffer((T.uint64(5),), "int32", data=stack_tcode)
        stack_tcode_1[0] = 3
        T.tvm_struct_set(stack_value, 1, 12, T.Cast("int64", n))
        stack_tcode_1[1] = 0
        T.tvm_struct_set(stack_value, 2, 12, T.Cast("float64", T.float32(0.5)))
        stack_tcode_1[2] = 2
        T.tvm_struct_set(stack_value, 3, 12, "name")
        stack_tcode_1[3] = 11
        T.call_packed_lowered("my_func", stack_value, stack_tcode, 0, 4)
        T.tvm_struct_set(stack_value, 0, 12, T.Cast("int64", n))
        stack_tcode_1[0] = 0
        T.call_packed_lowered("other", stack_value, stack_tcode, 0, 1)
