# from tvm.script import tirx as T

@T.prim_func
def pragma_attrs(A: T.Buffer((64,), "float32")):
    for i in range(64):
        T.attr({"pragma_import_c": "my_helpers.c"})
        A[i] = T.float32(1.0)
