# A strided parameter flattens to strides[0] * shape[0] elements with index i * 8 + j; an
# allocation with axis_separators=[1] flattens to one index per axis group (2-D physical).
@T.prim_func
def main(a: T.handle, C: T.Buffer((4, 4), "float32")):
    A = T.match_buffer(a, (4, 4), strides=(8, 1))
    B = T.decl_buffer((4, 2, 2), axis_separators=[1])
    for i, j in T.grid(4, 4):
        B[i, j // 2, j % 2] = A[i, j]
    for i, j in T.grid(4, 4):
        C[i, j] = B[i, j // 2, j % 2] + T.float32(1)


# output
@I.ir_module
class Module:
    @T.prim_func
    def main(a: T.handle, C: T.Buffer((4, 4), "float32")):
        A = T.match_buffer(a, (4, 4), strides=(8, 1))
        B = T.allocate([4, 4], "float32", "global")
        B_1 = T.Buffer((4, 4), data=B, axis_separators=[1])
        for i, j in T.grid(4, 4):
            A_1 = T.Buffer((32,), data=A.data)
            B_1[i, j] = A_1[i * 8 + j]
        for i, j in T.grid(4, 4):
            C_1 = T.Buffer((16,), data=C.data)
            C_1[i * 4 + j] = B_1[i, j] + T.float32(1.0)
