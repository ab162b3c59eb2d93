# T.alloc_buffer at the root and inside blocks, with scopes and dtypes.
from tvm.script import tir as T


# intermediate buffer allocated in the implicit root block
@T.prim_func
def two_stage(A: T.Buffer((128,), "float32"), C: T.Buffer((128,), "float32")):
    B = T.alloc_buffer((128,), "float32")
    for i in range(128):
        with T.block("B"):
            vi = T.axis.spatial(128, i)
            B[vi] = A[vi] * T.float32(2)
    for i in range(128):
        with T.block("C"):
            vi = T.axis.spatial(128, i)
            C[vi] = B[vi] + T.float32(1)


# an explicit root block holding the allocation, shared and local scopes
@T.prim_func
def explicit_root(A: T.Buffer((32, 32), "float32"), B: T.Buffer((32, 32), "float32")):
    with T.block("root"):
        T.reads()
        T.writes()
        A_shared = T.alloc_buffer((32, 32), scope="shared")
        A_local = T.alloc_buffer((32, 32), scope="local")
        for i, j in T.grid(32, 32):
            with T.block("A_shared"):
                vi, vj = T.axis.remap("SS", [i, j])
                A_shared[vi, vj] = A[vi, vj]
        for i, j in T.grid(32, 32):
            with T.block("A_local"):
                vi, vj = T.axis.remap("SS", [i, j])
                A_local[vi, vj] = A_shared[vi, vj]
        for i, j in T.grid(32, 32):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = A_local[vi, vj]


# allocation inside a block, keyword-only options
@T.prim_func
def alloc_in_block(A: T.Buffer((16, 16), "float32"), B: T.Buffer((16,), "float32")):
    for i in range(16):
        with T.block("outer"):
            vi = T.axis.spatial(16, i)
            T.reads(A[vi, 0:16])
            T.writes(B[vi])
            tmp = T.alloc_buffer((16,), dtype="float32", scope="local", align=64)
            for j in range(16):
                with T.block("tmp"):
                    vj = T.axis.spatial(16, j)
                    tmp[vj] = A[vi, vj] * A[vi, vj]
            for j in range(16):
                with T.block("acc"):
                    vj = T.axis.reduce(16, j)
                    with T.init():
                        B[vi] = T.float32(0)
                    B[vi] = B[vi] + tmp[vj]
