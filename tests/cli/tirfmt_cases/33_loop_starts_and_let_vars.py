from tvm.script import tir as T


# a loop's start written out stays written out, and a LetStmt written with var= over a var
# declared first keeps that spelling
@T.prim_func
def pool(A: T.Buffer((128,), "float32"), B: T.Buffer((4,), "int32")):
    for j in T.parallel(T.int64(0), T.int64(4)):
        for i in T.serial(0, 32):
            A[j*T.int64(32)+T.Cast("int64", i)] = T.float32(1)
    n = T.int32()
    with T.LetStmt(4, var=n):
        for k in range(0, n):
            B[k] = n
# output
from tvm.script import tir as T


# a loop's start written out stays written out, and a LetStmt written with var= over a var
# declared first keeps that spelling
@T.prim_func
def pool(A: T.Buffer((128,), "float32"), B: T.Buffer((4,), "int32")):
    for j in T.parallel(T.int64(0), T.int64(4)):
        for i in T.serial(0, 32):
            A[j * T.int64(32) + T.Cast("int64", i)] = T.float32(1)
    n = T.int32()
    with T.LetStmt(4, var=n):
        for k in range(0, n):
            B[k] = n
