# from tvm.script import tirx as T

@T.prim_func
def concise_attrs(A: T.Buffer((16,), "int32")):
    T.attr({"compute_scope": "concise_compute_"})
    T.attr(A.data, "storage_alignment", 64)
    for i in range(16):
        A[i] = i
    T.call_extern("int32", "flush", A.data)
