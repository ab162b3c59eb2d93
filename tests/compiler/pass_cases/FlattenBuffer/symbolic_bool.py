# Symbolic shapes flatten to n * m with index i * m + j; a boolean buffer is stored as int8,
# its stores cast to int8 and its loads cast back to bool; a vectorized loop is kept.
@T.prim_func
def main(a: T.handle, b: T.handle, n: T.int32, m: T.int32):
    A = T.match_buffer(a, (n, m))
    B = T.match_buffer(b, (n, m))
    M = T.decl_buffer((4,), "bool")
    for i in range(n):
        for j in T.vectorized(4):
            M[j] = j < 2
        for j in range(m):
            B[i, j] = T.if_then_else(M[j % 4], A[i, j], T.float32(0))


# output
@I.ir_module
class Module:
    @T.prim_func
    def main(a: T.handle, b: T.handle, n: T.int32, m: T.int32):
        A = T.match_buffer(a, (n, m))
        B = T.match_buffer(b, (n, m))
        M = T.allocate([4], "int8", "global")
        for i in range(n):
            M_1 = T.Buffer((4,), "int8", data=M)
            for j in T.vectorized(4):
                M_1[j] = T.Cast("int8", j < 2)
            for j in range(m):
                B_1 = T.Buffer((n * m,), data=B.data)
                A_1 = T.Buffer((n * m,), data=A.data)
                B_1[i * m + j] = T.if_then_else(T.Cast("bool", M_1[j % 4]), A_1[i * m + j], T.float32(0.0))
