@T.prim_func
def main(A: T.Buffer((16,), "int32"), n: T.int32):
    if n < 4:
        for i in range(4):
            if n < 8:
                A[i] = T.max(n, 5) + i * 0
            else:
                A[i] = n
    assert n > 0, "n must be positive"
    if T.likely(n > 0):
        A[0] = n + 1 - 1

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16,), "int32"), n: T.int32):
        if n < 4:
            for i in range(4):
                A[i] = 5
        assert 0 < n, "n must be positive"
        A[0] = n
