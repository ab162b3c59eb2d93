from tvm.script import tir as T


@T.prim_func
def nan_to_int(A: T.Buffer((8,), "int64")):
    A[5] = T.Cast("float64", T.float32("nan"))
    A[6] = T.Cast("int64", T.float64("inf"))
