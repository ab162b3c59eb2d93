from tvm.script import tir as T


@T.prim_func
def matmul(A: T.Buffer((128,128),"float32"), B: T.Buffer( (128, 128), "float32" ), C: T.Buffer((128,128), "float32")):
    T.func_attr({"global_symbol":"matmul", "tir.noalias":True})
    for i,j,k in T.grid(128,128,128):
        with T.block("update"):
            vi, vj, vk = T.axis.remap("SSR", [i,j,k])
            with T.init():
                C[vi,vj] = T.float32(0)
            C[vi, vj] = C[vi,vj]+A[vi,vk]*B[vj,vk]
# output
from tvm.script import tir as T


@T.prim_func
def matmul(
    A: T.Buffer((128, 128), "float32"),
    B: T.Buffer((128, 128), "float32"),
    C: T.Buffer((128, 128), "float32")
):
    T.func_attr({"global_symbol": "matmul", "tir.noalias": True})
    for i, j, k in T.grid(128, 128, 128):
        with T.block("update"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vj, vk]
