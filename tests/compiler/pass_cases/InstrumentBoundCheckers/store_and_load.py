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
                assert T.Cast("int64", i // 4) * T.int64(4) + T.Cast("int64", i % 4) >= T.int64(0) and T.Cast("int64", i // 4) * T.int64(4) + T.Cast("int64", i % 4) < T.int64(16), "OUT OF THE BOUNDS: B[{index}] is read out of its 16 elements (index i // 4, i % 4 with i = {i}) at <string>:5:16"
                assert T.Cast("int64", i) >= T.int64(0) and T.Cast("int64", i) < T.int64(16), "OUT OF THE BOUNDS: A[{index}] is written out of its 16 elements (index i with i = {i}) at <string>:5:9"
                T.evaluate(1)
