@T.prim_func
def main(B: T.Buffer((T.int64(128),), "float32"), n: T.int64):
    for i in range(n):
        B[i] = T.float32(0)
    for i in range(T.int64(4)):
        x: T.int64 = i * T.int64(2)
        B[x] = T.float32(1)

# output
@I.ir_module
class Module:
    @T.prim_func
    def main(B: T.Buffer((T.int64(128),), "float32"), n: T.int64):
        for i in range(n):
            B[i] = T.float32(0.0)
        for i in range(4):
            x: T.int64 = T.Cast("int64", i * 2)
            B[x] = T.float32(1.0)
