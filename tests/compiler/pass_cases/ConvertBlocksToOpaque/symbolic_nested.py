# Symbolic shapes, a vectorized and a parallel loop, a nested block whose binding uses the
# outer block's iter var.
@T.prim_func
def main(a: T.handle, b: T.handle, n: T.int32):
    A = T.match_buffer(a, (n, 8), "float32")
    B = T.match_buffer(b, (n, 8), "float32")
    for i in T.parallel(n):
        with T.block("outer"):
            vi = T.axis.spatial(n, i)
            T.reads(A[vi, 0:8])
            T.writes(B[vi, 0:8])
            for j in T.vectorized(8):
                with T.block("inner"):
                    vj = T.axis.spatial(8, j)
                    T.reads(A[vi, vj])
                    T.writes(B[vi, vj])
                    B[vi, vj] = A[vi, vj] * T.float32(2)


# output
@I.ir_module
class Module:
    @T.prim_func
    def main(a: T.handle, b: T.handle, n: T.int32):
        A = T.match_buffer(a, (n, 8), "float32")
        B = T.match_buffer(b, (n, 8), "float32")
        # with T.block("root"):
        for i in T.parallel(n):
            with T.block("outer"):
                T.reads(A[i, 0:8])
                T.writes(B[i, 0:8])
                for j in T.vectorized(8):
                    with T.block("inner"):
                        T.reads(A[i, j])
                        T.writes(B[i, j])
                        B[i, j] = A[i, j] * T.float32(2.0)
