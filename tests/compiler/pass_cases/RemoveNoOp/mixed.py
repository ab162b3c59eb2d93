@T.prim_func
def main(A: T.Buffer((16,), "float32"), n: T.int32):
    for i in range(16):
        T.evaluate(0)
    x: T.int32 = n + 1
    A[0] = T.float32(1)
    y: T.int32 = n * 2
    for j in range(0):
        A[j] = T.float32(1)
    if n > 2:
        T.evaluate(0)
    else:
        T.evaluate(1)
    A[1] = A[1]
    assert n > 0, "nope"
    T.evaluate(0)
    for k in range(4):
        if n > 3:
            A[k] = T.float32(3)

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16,), "float32"), n: T.int32):
        x: T.int32 = n + 1
        A[0] = T.float32(1.0)
        y: T.int32 = n * 2
        assert n > 0, "nope"
        for k in range(4):
            if n > 3:
                A[k] = T.float32(3.0)
