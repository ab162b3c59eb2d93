# from tvm.script import tirx as T

@T.prim_func
def extern_calls(A: T.Buffer((16,), "float32")):
    T.call_extern("float32", "my_fn", A.data, 16)
    T.call_extern("float32", "my_fn", A.data, 16)
    A[0] = T.call_pure_extern("float32", "expf", A[1])
    A[1] = T.call_pure_extern("float32", "expf", A[2])
    A[2] = T.reinterpret("float32", T.reinterpret("int32", A[3]))
