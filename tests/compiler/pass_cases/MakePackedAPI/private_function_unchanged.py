# from tvm.script import tir as T

@T.prim_func(private=True)
def helper(A: T.Buffer((4,), "float32")):
    T.func_attr({"target": T.target("llvm")})
    for i in range(4):
        A[i] = T.float32(0)

# output
# from tvm.script import ir as I
# from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def main(A: T.Buffer((4,), "float32")):
        T.func_attr({"target": {"kind": "llvm"}})
        for i in range(4):
            A[i] = T.float32(0.0)
