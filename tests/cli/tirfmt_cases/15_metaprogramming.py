from tvm.script import tir as T

SHAPE = (2, 3)
OFFSETS = (0, 2)
chunk = 3


@T.macro
def bump(A, i):
    A[i] = A[i]+T.float32(1)


@T.prim_func
def uses_macro(A: T.Buffer((16,), "float32")):
    for i in range(16):
        bump(A, i)


@T.prim_func
def strided(A: T.Buffer((16,), "float32")):
    for n in T.serial(0, 16, chunk):
        A[n]=T.float32(0)


@T.prim_func
def computed(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
    C = T.compute((16,), lambda i: A[i]*T.float32(2), name="C")
    for i in range(16):
        B[i]=C[i]


@T.prim_func
def polymorphic(A: T.Buffer(SHAPE, "float32")):
    for *ax in T.grid(*A.shape):
        A[*ax]=T.float32(0)


@T.prim_func
def unrolled(A: T.Buffer((4,), "float32")):
    for off in OFFSETS:
        x = T.meta_var(T.float32(off))
        A[off]=x


@T.prim_func
def plain(A: T.Buffer((4,), "float32")):
    for i in range(0, 4, 1):
        A[i]=T.float32(0)
# output
from tvm.script import tir as T

SHAPE = (2, 3)
OFFSETS = (0, 2)
chunk = 3


@T.macro
def bump(A, i):
    A[i] = A[i]+T.float32(1)


@T.prim_func
def uses_macro(A: T.Buffer((16,), "float32")):
    for i in range(16):
        bump(A, i)


@T.prim_func
def strided(A: T.Buffer((16,), "float32")):
    for n in T.serial(0, 16, chunk):
        A[n]=T.float32(0)


@T.prim_func
def computed(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
    C = T.compute((16,), lambda i: A[i]*T.float32(2), name="C")
    for i in range(16):
        B[i]=C[i]


@T.prim_func
def polymorphic(A: T.Buffer(SHAPE, "float32")):
    for *ax in T.grid(*A.shape):
        A[*ax]=T.float32(0)


@T.prim_func
def unrolled(A: T.Buffer((4,), "float32")):
    for off in OFFSETS:
        x = T.meta_var(T.float32(off))
        A[off]=x


@T.prim_func
def plain(A: T.Buffer((4,), "float32")):
    for i in range(0, 4):
        A[i] = T.float32(0)
