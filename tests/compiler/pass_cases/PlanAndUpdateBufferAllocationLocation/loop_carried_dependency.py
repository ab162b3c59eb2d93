# An opaque iter var (vj bound to j) reading C[vi, vj - 1]: the allocations are placed above
# loop `j`, in allocation order (TVM v0.20 test_loop_carried_dependency).
@T.prim_func
def main(A: T.Buffer((8, 8, 8), "int32"), B: T.Buffer((8, 8, 8), "int32")):
    C = T.alloc_buffer([8, 8, 8], dtype="int32")
    D = T.alloc_buffer([8, 8, 8], dtype="int32")
    for i in T.serial(8):
        for j in T.serial(8):
            for k in T.serial(8):
                with T.block("b0"):
                    vi, vj, vk = T.axis.remap("SSS", [i, j, k])
                    C[vi, vj, vk] = A[vi, vj, vk] + 1
            for k in T.serial(8):
                with T.block("b1"):
                    vi, vj, vk = T.axis.remap("SSS", [i, j, k])
                    D[vi, vj, vk] = A[vi, vj, vk] + 2
            for k in T.serial(8):
                with T.block("b2"):
                    vi, vk = T.axis.remap("SS", [i, k])
                    vj = T.axis.opaque(8, j)
                    B[vi, vj, vk] = (
                        C[vi, vj, vk]
                        + T.if_then_else(0 < vj, C[vi, vj - 1, vk], 0)
                        + D[vi, vj, vk]
                    )


# output
@T.prim_func
def main(A: T.Buffer((8, 8, 8), "int32"), B: T.Buffer((8, 8, 8), "int32")) -> None:
    for i in T.serial(8):
        with T.block():
            T.reads(A[i, 0:8, 0:8])
            T.writes(B[i, 0:8, 0:8])
            C = T.alloc_buffer([8, 8, 8], dtype="int32")
            D = T.alloc_buffer([8, 8, 8], dtype="int32")
            for j in T.serial(8):
                for k in T.serial(8):
                    with T.block("b0"):
                        vi, vj, vk = T.axis.remap("SSS", [i, j, k])
                        C[vi, vj, vk] = A[vi, vj, vk] + 1
                for k in T.serial(8):
                    with T.block("b1"):
                        vi, vj, vk = T.axis.remap("SSS", [i, j, k])
                        D[vi, vj, vk] = A[vi, vj, vk] + 2
                for k in T.serial(8):
                    with T.block("b2"):
                        vi, vk = T.axis.remap("SS", [i, k])
                        vj = T.axis.opaque(8, j)
                        B[vi, vj, vk] = (
                            C[vi, vj, vk]
                            + T.if_then_else(0 < vj, C[vi, vj - 1, vk], 0)
                            + D[vi, vj, vk]
                        )
