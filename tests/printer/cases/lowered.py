@T.prim_func
def lowered(A: T.Buffer((1024,), "float32"), B: T.Buffer((1024,), "float32"), n: T.int32):
    T.func_attr({"global_symbol": "lowered", "tir.noalias": True})
    x: T.int32 = n * 2
    y: T.int32 = x + 1
    assert n > 0, "n must be positive"
    T.attr(0, "compute_scope", "lowered_compute_")
    buf = T.decl_buffer((64,), "float32")
    for i in range(64):
        buf[i] = A[i + y]
    for i in range(64):
        if i % 2 == 0:
            B[i] = buf[i]
        else:
            B[i] = T.Div(T.float32(0), T.float32(1))
    while x < 10:
        T.evaluate(T.call_extern("int32", "tick", x))
# output
# from tvm.script import tir as T

@T.prim_func
def lowered(A: T.Buffer((1024,), "float32"), B: T.Buffer((1024,), "float32"), n: T.int32):
    T.func_attr({"tir.noalias": True})
    x: T.int32 = n * 2
    y: T.int32 = x + 1
    assert n > 0, "n must be positive"
    T.attr(0, "compute_scope", "lowered_compute_")
    buf = T.decl_buffer((64,))
    for i in range(64):
        buf[i] = A[i + y]
    for i in range(64):
        if i % 2 == 0:
            B[i] = buf[i]
        else:
            B[i] = T.Div(T.float32(0.0), T.float32(1.0))
    while x < 10:
        T.call_extern("int32", "tick", x)
