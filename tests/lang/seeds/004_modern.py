# Seed 004's TIR in well-formed classic TVMScript: the element-wise function that
# te.create_prim_func produces, and the dynamic-shape ewise function with m passed as a parameter.
from tvm.script import tir as T


# te.compute((128, 128), lambda x, y: A[x, y] * 2) as TVM's create_prim_func prints it
@T.prim_func
def tir_element_wise(A: T.Buffer((128, 128), "float32"), B: T.Buffer((128, 128), "float32")):
    T.func_attr({"global_symbol": "tir_element_wise", "tir.noalias": True})
    for x, y in T.grid(128, 128):
        with T.block("B"):
            v_x, v_y = T.axis.remap("SS", [x, y])
            T.reads(A[v_x, v_y])
            T.writes(B[v_x, v_y])
            B[v_x, v_y] = A[v_x, v_y] * T.float32(2)


# the dynamic version: n bound by match_buffer, m a parameter, shape 2 * floordiv(m, 2)
@T.prim_func
def ewise_fun(a: T.handle, b: T.handle, m: T.int64):
    n = T.int64()
    A = T.match_buffer(a, (n, T.int64(2) * T.floordiv(m, T.int64(2))))
    B = T.match_buffer(b, (n, T.int64(2) * T.floordiv(m, T.int64(2))))
    for i, j in T.grid(n, T.int64(2) * T.floordiv(m, T.int64(2))):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] * T.float32(2)


# the same with int32 shapes and an explicit second symbolic var
@T.prim_func
def ewise_fun_i32(a: T.handle, b: T.handle):
    n = T.int32()
    k = T.int32()
    A = T.match_buffer(a, (n, k))
    B = T.match_buffer(b, (n, k))
    for i, j in T.grid(n, k):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] * T.float32(2)
