# Bindings: `x = expr`, `x: T.int32 = expr` LetStmts, T.let (stmt and expr), T.Let, T.LetStmt.
from tvm.script import tir as T


# plain and annotated assignment of PrimExprs become LetStmts
@T.prim_func
def let_assign(A: T.Buffer((16,), "float32"), n: T.int32):
    half = n // 2
    scale: T.float32 = T.float32(0.5)
    idx: T.int32 = half + 1
    A[idx] = A[idx] * scale


# legacy T.let with a pre-declared var in a with statement, and the expression form
@T.prim_func
def let_legacy(A: T.Buffer((8,), "int32")):
    x = T.int32()
    y = T.int32()
    with T.let(x, 3):
        A[x] = T.let(y, 4, y * 2)


# T.Let expression with a where-dict
@T.prim_func
def let_expr(A: T.Buffer((8,), "int32"), k: T.int32):
    y = T.int32()
    A[0] = T.Let(y * y + 1, where={y: k + 2})


# T.LetStmt frame bound with `as`, and with an explicit var
@T.prim_func
def let_stmt_frame(A: T.Buffer((8,), "float32"), n: T.int32):
    with T.LetStmt(n * 4) as m:
        A[0] = T.Cast("float32", m)
    v = T.int32()
    with T.LetStmt(n + 1, var=v):
        A[1] = T.Cast("float32", v)


# annotated handle let: a typed pointer bound from an intrinsic
@T.prim_func
def let_handle(A: T.Buffer((4,), "float32")):
    ptr: T.handle("float32") = T.address_of(A[0])
    B = T.decl_buffer((4,), "float32", data=ptr)
    B[1] = T.float32(1)


# tuple-unpacked lets from a tuple of expressions
@T.prim_func
def let_tuple(A: T.Buffer((4,), "int32"), n: T.int32):
    lo, hi = n - 1, n + 1
    A[0] = lo * hi
