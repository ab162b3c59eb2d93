@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((16,), "int32")):
        for i in range(16):
            A[i] = i
    @T.prim_func
    def g(A: T.Buffer((16,), "int32")):
        for i in range(16):
            A[i] = i * 2

# output
@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((16,), "int32")):
        for i in range(16):
            A[i] = i

    @T.prim_func
    def g(A: T.Buffer((16,), "int32")):
        for i in range(16):
            A[i] = i * 2
