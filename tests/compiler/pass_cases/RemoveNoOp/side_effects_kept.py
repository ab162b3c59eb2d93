@T.prim_func
def main(A: T.Buffer((16,), "float32"), n: T.int32):
    T.evaluate(T.call_extern("int32", "tick", n))
    if n > 1:
        T.evaluate(0)
    else:
        A[0] = T.float32(1)
    for i in range(0):
        A[i] = T.float32(2)

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16,), "float32"), n: T.int32):
        T.call_extern("int32", "tick", n)
        if not n > 1:
            A[0] = T.float32(1.0)
