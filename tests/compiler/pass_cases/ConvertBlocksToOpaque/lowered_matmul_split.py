# A matmul after LowerInitBlock with a split, non-divisible loop: the bindings are affine
# expressions of the loops, the predicate stays on the BlockRealize.
@T.prim_func
def main(A: T.Buffer((100, 64), "float32"), B: T.Buffer((64, 100), "float32"), C: T.Buffer((100, 100), "float32")):
    for i0, i1, j, k in T.grid(25, 4, 100, 64):
        with T.block("C"):
            vi = T.axis.spatial(100, i0 * 4 + i1)
            vj, vk = T.axis.remap("SR", [j, k])
            T.where(i0 * 4 + i1 < 100)
            T.reads(A[vi, vk], B[vk, vj])
            T.writes(C[vi, vj])
            if vk == 0:
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]


# output
@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((100, 64), "float32"), B: T.Buffer((64, 100), "float32"), C: T.Buffer((100, 100), "float32")):
        # with T.block("root"):
        for i0, i1, j, k in T.grid(25, 4, 100, 64):
            with T.block("C"):
                T.where(i0 * 4 + i1 < 100)
                T.reads(A[i0 * 4 + i1, k], B[k, j])
                T.writes(C[i0 * 4 + i1, j])
                if k == 0:
                    C[i0 * 4 + i1, j] = T.float32(0.0)
                C[i0 * 4 + i1, j] = C[i0 * 4 + i1, j] + A[i0 * 4 + i1, k] * B[k, j]
