# Symbolic extents: a (n, m) buffer used one row at a time under loop `i` becomes (1, m).
@T.prim_func
def main(a: T.handle, c: T.handle, n: T.int32, m: T.int32):
    A = T.match_buffer(a, (n, m), "float32")
    C = T.match_buffer(c, (n, m), "float32")
    for i in range(n):
        with T.block():
            T.reads(A[i, 0:m])
            T.writes(C[i, 0:m])
            B = T.alloc_buffer((n, m), "float32")
            for j in range(m):
                with T.block():
                    T.reads(A[i, j])
                    T.writes(B[i, j])
                    B[i, j] = A[i, j] + T.float32(1)
            for j in range(m):
                with T.block():
                    T.reads(B[i, j])
                    T.writes(C[i, j])
                    C[i, j] = B[i, j] * T.float32(2)


# output
@I.ir_module
class Module:
    @T.prim_func
    def main(a: T.handle, c: T.handle, n: T.int32, m: T.int32):
        A = T.match_buffer(a, (n, m))
        C = T.match_buffer(c, (n, m))
        # with T.block("root"):
        for i in range(n):
            with T.block(""):
                T.reads(A[i, 0:m])
                T.writes(C[i, 0:m])
                B = T.alloc_buffer((1, m))
                for j in range(m):
                    with T.block(""):
                        T.reads(A[i, j])
                        T.writes(B[i - i, j])
                        B[i - i, j] = A[i, j] + T.float32(1.0)
                for j in range(m):
                    with T.block(""):
                        T.reads(B[i - i, j])
                        T.writes(C[i, j])
                        C[i, j] = B[i - i, j] * T.float32(2.0)
