@T.func
def ewise_fun(A, B):
    n = tir.var("n")
    m = tir.var("m")
    A = T.match_buffer(a, (n, 2*floordiv(m, 2)))
    B = T.match_buffer(b, (n, 2*floordiv(m, 2)))
    with T.block([n, 2 * 2*floordiv(m, 2)]) as [i, j]:
        B[i, j] = A[i, j] * 2.0

x : rx.Var = rx.var("x", shape=[n, 2 * 2*floordiv(m, 2)])
B = bb.call_tir([n, 2 * 2*floordiv(m, 2)], ewise_func, [x])


@T.func
def ewise_fun(A, B, m: T.int64):
    n = tir.var("n")
    A = T.match_buffer(a, (n, 2*floordiv(m, 2)))
    B = T.match_buffer(b, (n, 2*floordiv(m, 2)))
    with T.block([n, 2 * 2*floordiv(m, 2)]) as [i, j]:
        B[i, j] = A[i, j] * 2.0

x : rx.Var = rx.var("x", shape=[n, 2*floordiv(m, 2)])
B = bb.call_tir_dyn([n, 2*floordiv(m, 2)], ewise_func, [x], ShapeExpr([m]))
