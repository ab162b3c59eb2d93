# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def matmul_i64(A: T.Buffer((T.int64(128), T.int64(64)), "float32"), B: T.Buffer((T.int64(64), T.int64(32)), "float32"), C: T.Buffer((T.int64(128), T.int64(32)), "float32")):
    T.func_attr({"tir.noalias": True})
    # with T.sblock("root"):
    for i, j, k in T.grid(T.int64(128), T.int64(32), T.int64(64)):
        with T.sblock("matmul"):
            v_i, v_j, v_k = T.axis.remap("SSR", [i, j, k])
            T.reads(A[v_i, v_k], B[v_k, v_j])
            T.writes(C[v_i, v_j])
            with T.init():
                C[v_i, v_j] = T.float32(0.0)
            C[v_i, v_j] = C[v_i, v_j] + A[v_i, v_k] * B[v_k, v_j]
