# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((8,), "float32")):
    T.func_attr({"global_symbol": "main"})
    for i in T.parallel(8):
        T.evaluate(T.call_packed("per_row", i, A.data))

# output
# from tvm.script import ir as I
# from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((8,), "float32")):
        for i in T.parallel(8):
            stack_tcode: T.handle("int32", "global") = T.tvm_stack_alloca("arg_tcode", 3)
            stack_value: T.handle = T.tvm_stack_alloca("arg_value", 3)
            T.tvm_struct_set(stack_value, 0, 12, T.Cast("int64", i))
            stack_tcode_1 = T.Buffer((T.uint64(3),), "int32", data=stack_tcode)
            stack_tcode_1[0] = 0
            T.tvm_struct_set(stack_value, 1, 12, A.data)
            stack_tcode_1[1] = 3
            T.call_packed_lowered("per_row", stack_value, stack_tcode, 0, 2)
