# flags: {"config": {"tir.instrument_bound_checkers": true}}
@T.prim_func
def main(A: T.Buffer((16,), "float32"), j: T.int32):
    A[T.Ramp(j, 1, 4)] = T.Broadcast(T.float32(1), 4)

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16,), "float32"), j: T.int32):
        if T.Cast("int64", j + 3) >= T.int64(0) and T.Cast("int64", j + 3) < T.int64(16):
            A[j:j + 4] = T.Broadcast(T.float32(1.0), 4)
        else:
            assert T.Cast("int64", j + 3) >= T.int64(0) and T.Cast("int64", j + 3) < T.int64(16), "OUT OF THE BOUNDS: A[{index}] is written out of its 16 elements (index j with j = {j}) at <string>:4:5"
            T.evaluate(1)
