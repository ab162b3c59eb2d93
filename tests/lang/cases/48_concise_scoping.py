# Concise scoping: scope handlers used as plain statements cover the rest of their block (seed 000 feature 1).
from tvm.script import tir as T


# concise launch_thread, allocate, attr and Assert in one body
@T.prim_func
def concise_all(A: T.Buffer((128,), "float32"), n: T.int32):
    tx = T.launch_thread("threadIdx.x", 128)
    buf = T.allocate([128], "float32", "local")
    T.attr(buf, "storage_alignment", 16)
    T.Assert(n <= 128, "n too large")
    buf_1 = T.Buffer((128,), data=buf, scope="local")
    buf_1[tx] = A[tx]
    if tx < n:
        A[tx] = buf_1[tx] * T.float32(2)


# the same structure written with explicit with-statements
@T.prim_func
def explicit_all(A: T.Buffer((128,), "float32"), n: T.int32):
    with T.launch_thread("threadIdx.x", 128) as tx:
        with T.allocate([128], "float32", "local") as buf:
            with T.attr(buf, "storage_alignment", 16):
                with T.Assert(n <= 128, "n too large"):
                    buf_1 = T.Buffer((128,), data=buf, scope="local")
                    buf_1[tx] = A[tx]
                    if tx < n:
                        A[tx] = buf_1[tx] * T.float32(2)


# concise forms inside a loop body: each covers only the rest of that loop body
@T.prim_func
def concise_in_loop(A: T.Buffer((8, 16), "float32")):
    for i in range(8):
        tmp = T.allocate([16], "float32", "global")
        tmp_1 = T.Buffer((16,), data=tmp)
        for j in range(16):
            tmp_1[j] = A[i, j]
        for j in range(16):
            A[i, j] = tmp_1[15 - j]
    T.evaluate(0)


# decl_buffer concise after an allocate, then a concise LetStmt-style binding
@T.prim_func
def concise_decl(A: T.Buffer((4,), "int32"), k: T.int32):
    data = T.allocate([4], "int32", "global")
    D = T.decl_buffer((4,), "int32", data=data)
    twice: T.int32 = k * 2
    for i in range(4):
        D[i] = A[i] + twice
    for i in range(4):
        A[i] = D[i]
