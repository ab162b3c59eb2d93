# flags: {"config": {"tir.instrument_bound_checkers": true}}
@T.prim_func
def main(A: T.Buffer((16,), "float32"), B: T.Buffer((4, 4), "float32"), n: T.int32):
    for i in range(n):
        A[i] = B[i // 4, i % 4] + T.float32(1)

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16,), "float32"), B: T.Buffer((4, 4), "float32"), n: T.int32):
        for i in range(n):
            if T.Cast("int64", i // 4) * T.int64(4) + T.Cast("int64", i % 4) >= T.int64(0) and T.Cast("int64", i // 4) * T.int64(4) + T.Cast("int64", i % 4) < T.int64(16) and (T.Cast("int64", i) >= T.int64(0) and T.Cast("int64", i) < T.int64(16)):
                A[i] = B[i // 4, i % 4] + T.float32(1.0)
            else:
                assert T.Cast("int64", i // 4) * T.int64(4) + T.Cast("int64", i % 4) >= T.int64(0) and T.Cast("int64", i // 4) * T.int64(4) + T.Cast("int64", i % 4) < T.int64(16) and (T.Cast("int64", i) >= T.int64(0) and T.Cast("int64", i) < T.int64(16)), "OUT OF THE BOUNDS: an index of B, A is outside the buffer's shape"
                T.evaluate(1)
